// Package store implements engine.Store on one SQLite file: schema and
// numbered migrations, the queries of engine.Queries, the audit log with
// batch rollback, and online backups with a JSON dump and checksums. It is the
// only package in memtrace that writes SQL.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"memtrace/internal/outfile"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
	"memtrace/store/vecfile"
)

// busyTimeout is how long a writer waits for another process's write lock
// (the MCP server and the TUI share one file) before giving up.
const busyTimeout = 10 * time.Second

// readConns bounds the reader pool; writes go through a single connection.
const readConns = 4

// DB is a memtrace database. It implements engine.Store.
//
// Writes go through one connection that begins every transaction with BEGIN
// IMMEDIATE: in WAL mode a deferred transaction that starts reading and then
// writes can fail at once with "database is locked" instead of waiting, so
// writers take the lock up front and wait for it under busy_timeout. Reads
// use a separate pool and never block on writers.
type DB struct {
	path   string
	now    func() time.Time
	writer *sql.DB
	reader *sql.DB
	// pinned is the database's pinned clock (engine.SettingClock), read at
	// open and kept current by SetSetting; used when Open got no clock.
	pinned atomic.Pointer[time.Time]
	// vecPlan is the vector file VectorSlab mapped for the next load
	// (vectors_file.go).
	vecPlan atomic.Pointer[vectorPlan]
	// vecCommits are the vector files being synced and renamed, which
	// Close waits for.
	vecCommits sync.WaitGroup
	// vecLoaded is the vector file the last load read from, until
	// ReleaseVectorPages pages it out.
	vecLoaded atomic.Pointer[vecfile.File]

	// pg: a PostgreSQL space (postgres.go); writer and reader are then one
	// pool, dsn the address it was opened with, space its schema.
	pg    bool
	dsn   string
	space string
	// writing counts the PostgreSQL writes under way (writegate.go).
	writing writeGate
}

var _ engine.Store = (*DB)(nil)

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Open opens (creating if needed) the database at path, applies any pending
// migrations and returns it. now is the clock used for audit and creation
// times; nil means the database's own clock: the time it pins
// (engine.SettingClock) when it pins one, else the wall clock — the same
// clock the engine is given, so every time the product writes reads as one
// timeline.
//
// A SQLite file that holds other tables and no memtrace schema is refused
// untouched: memtrace creates its schema only in a new or empty file.
//
// A path that is a PostgreSQL DSN (postgres://…, IsDSN) opens the memory
// space its search_path names on that server instead (postgres.go).
func Open(ctx context.Context, path string, now func() time.Time) (*DB, error) {
	if path == "" {
		return nil, engine.Errorf(engine.EINVALID, "no database path given")
	}
	if IsDSN(path) {
		return openPostgres(ctx, path, now)
	}
	if IsKeywordDSN(path) {
		// Never a file name: a file called "host=… password=…" would keep
		// the password in a directory listing, and every message would
		// echo it. The message names no part of it.
		return nil, ErrKeywordDSN
	}
	if err := checkDatabaseFile(path); err != nil {
		return nil, err
	}
	if err := checkForeignSchema(ctx, path); err != nil {
		return nil, err
	}
	db := &DB{path: path}
	if now == nil {
		now = db.clock
	}
	db.now = now
	db.writer = openPool(dsn(path, true), writerPragmas)
	db.writer.SetMaxOpenConns(1)
	db.writer.SetMaxIdleConns(1)
	db.writer.SetConnMaxLifetime(0)
	db.writer.SetConnMaxIdleTime(0)
	db.reader = openPool(dsn(path, false), readerPragmas)
	db.reader.SetMaxOpenConns(readConns)
	db.reader.SetMaxIdleConns(readConns)
	if err := migrate(ctx, db.writer, migrations()); err != nil {
		db.Close()
		return nil, openError(path, err)
	}
	v, err := db.GetSetting(ctx, engine.SettingClock)
	if err != nil {
		db.Close()
		return nil, openError(path, err)
	}
	db.pin(v)
	return db, nil
}

// clock is the database's own clock: the pinned time, else the wall clock.
func (db *DB) clock() time.Time {
	if t := db.pinned.Load(); t != nil {
		return *t
	}
	return time.Now()
}

// pin sets the pinned clock from a setting's value; "" or a value that is
// not RFC 3339 means the wall clock (the CLI reports a bad value).
func (db *DB) pin(v string) {
	t, err := time.Parse(time.RFC3339, v)
	if v == "" || err != nil {
		db.pinned.Store(nil)
		return
	}
	t = t.UTC()
	db.pinned.Store(&t)
}

// Connection settings beyond what the DSN can say. The writer gets a larger
// page cache so that the indexes of a bulk import stay in memory, and
// checkpoints the WAL less often (each checkpoint syncs the file).
//
// The connection that loads every memory (forEachMemoryRaw) maps the file
// (loadPragma: mmap_size, up to 1 GiB): the engine's load at open reads
// every page of the memories table once, and through the map SQLite reads a
// page in place instead of copying it into each connection's page cache
// (the 100k-memory load's floor fell from 750 to 530 ms). Other readers do
// not: a mapped page counts in the process's resident set, and the kernel
// maps 64 KiB around every page touched, so counting a page of `list` at
// 100k memories (a walk of a 1.3 MB index) put 20 MB in the resident set
// of a command that holds 2 MB of heap. For the same reason the load's
// connection drops its map when the load is done (unmapPragma): at 100k
// memories the map is the whole 240 MB file, resident until then. The
// price of the map, as SQLite documents it: a read error under it (a file
// truncated behind SQLite's back, a failing network disk) is a SIGBUS, not
// an error value — acceptable for the local file a memtrace database is.
const (
	writerPragmas = "PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 8192"
	readerPragmas = "PRAGMA cache_size = -8192"
	loadPragma    = "PRAGMA mmap_size = 1073741824"
	unmapPragma   = "PRAGMA mmap_size = 0"
)

// openPool opens a connection pool whose connections run pragmas on connect.
func openPool(dsn string, pragmas string) *sql.DB {
	drv := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		_, err := c.Exec(pragmas, nil)
		return err
	}}
	return sql.OpenDB(connector{drv: drv, dsn: dsn})
}

// connector opens connections of one pool through a driver with a hook.
type connector struct {
	drv *sqlite3.SQLiteDriver
	dsn string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.drv }

// dsn builds a file: URI so that any character in path is escaped, with the
// connection settings every connection gets.
func dsn(path string, writer bool) string {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "NORMAL")
	if writer {
		q.Set("_txlock", "immediate")
	}
	return "file:" + escapePath(path) + "?" + q.Encode()
}

// escapePath percent-escapes a path for a file: URI, so that '?', '#' and
// '%' in a file name are not read as URI syntax.
func escapePath(path string) string {
	return (&url.URL{Path: path}).EscapedPath()
}

// checkDatabaseFile refuses a path that exists but is not a SQLite file, and
// a path whose directory does not exist, with a message a user can act on.
func checkDatabaseFile(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		dir := filepath.Dir(path)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return engine.Errorf(engine.EINVALID, "cannot create database %s: directory %s does not exist", path, dir)
		}
		return nil
	} else if err != nil {
		return engine.Errorf(engine.EUNAVAIL, "cannot read database %s: %v", path, err)
	}
	if fi.IsDir() {
		return engine.Errorf(engine.EINVALID, "%s is a directory, not a memtrace database", path)
	}
	if fi.Size() == 0 {
		return nil // SQLite treats an empty file as an empty database.
	}
	f, err := os.Open(path)
	if err != nil {
		return engine.Errorf(engine.EUNAVAIL, "cannot read database %s: %v", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, sqliteHeader) {
		return engine.Errorf(engine.EINVALID, "%s is not a memtrace database (not a SQLite file)", path)
	}
	return nil
}

// openError turns driver failures at open into messages that say what is
// wrong with the file rather than what the driver said.
func openError(path string, err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code {
	case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
		return engine.Errorf(engine.EINVALID, "%s is not a memtrace database (damaged or not a SQLite file); if it was one, restore it from the latest `memtrace backup` output", path)
	case sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrReadonly:
		return engine.Errorf(engine.EUNAVAIL, "cannot open database %s for writing; check the path and its permissions", path)
	case sqlite3.ErrBusy, sqlite3.ErrLocked:
		return engine.Errorf(engine.EUNAVAIL, "database %s is busy (another memtrace holds a write lock); try again", path)
	}
	return txError(path, "open database", err)
}

// Path returns the database file.
func (db *DB) Path() string { return db.path }

// FilePerm is the mode of files written from this database's contents: its
// file's own read and write bits; outfile.Private on PostgreSQL.
func (db *DB) FilePerm() os.FileMode {
	if db.pg {
		return outfile.Private
	}
	return outfile.Perm(db.path)
}

// Now returns the current time of the store's clock, in UTC.
func (db *DB) Now() time.Time { return db.now().UTC() }

// Close closes both connection pools.
func (db *DB) Close() error {
	db.vecCommits.Wait()
	db.vecLoaded.Store(nil)
	var errs []error
	if db.reader != nil {
		errs = append(errs, db.reader.Close())
	}
	if db.writer != nil && db.writer != db.reader {
		errs = append(errs, db.writer.Close())
	}
	return errors.Join(errs...)
}

// Update runs fn in one write transaction: everything fn does commits, or
// nothing does when fn (or the commit) fails. The Queries given to fn must
// not be used after fn returns.
//
// Inside fn, write only through q: the DB has one write connection, so a
// write through the DB's own methods (or a nested Update) would wait for fn
// to finish, forever. Reads through the DB do not block but do not see fn's
// uncommitted writes.
func (db *DB) Update(ctx context.Context, fn func(q engine.Queries) error) error {
	return db.write(ctx, func(tx *Tx) error { return fn(tx) })
}

// write runs fn in a write transaction.
func (db *DB) write(ctx context.Context, fn func(tx *Tx) error) error {
	return db.run(ctx, db.writer, true, fn)
}

// read runs fn in a read transaction on the reader pool.
func (db *DB) read(ctx context.Context, fn func(tx *Tx) error) error {
	return db.run(ctx, db.reader, false, fn)
}

func (db *DB) run(ctx context.Context, pool *sql.DB, write bool, fn func(tx *Tx) error) error {
	if db.pg && write {
		return db.runPGWrite(ctx, fn) // pgpipe.go
	}
	var opts *sql.TxOptions
	if db.pg && !write {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	sqlTx, err := pool.BeginTx(ctx, opts)
	if err != nil {
		return txError(db.path, "begin transaction", err)
	}
	tx := &Tx{tx: sqlTx2(sqlTx, db.pg), now: db.now}
	defer tx.close()
	if err := fn(tx); err != nil {
		_ = sqlTx.Rollback()
		return txError(db.path, "", err)
	}
	if err := tx.flushSeq(ctx); err != nil {
		_ = sqlTx.Rollback()
		if ctxErr := ctx.Err(); ctxErr != nil {
			return cancelled("commit", ctxErr)
		}
		return txError(db.path, "", err)
	}
	if err := sqlTx.Commit(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, sql.ErrTxDone) {
			// database/sql rolled the transaction back when ctx ended.
			return cancelled("commit", ctxErr)
		}
		return txError(db.path, "commit", err)
	}
	return nil
}

// cancelled is the error of a write transaction rolled back because its
// context ended before the commit: the context's error, saying so.
func cancelled(what string, ctxErr error) error {
	return fmt.Errorf("%s: %w: the transaction was rolled back, nothing of it was written", what, ctxErr)
}

// readValue runs fn in a read transaction and returns its value.
func readValue[T any](ctx context.Context, db *DB, fn func(tx *Tx) (T, error)) (T, error) {
	var v T
	err := db.read(ctx, func(tx *Tx) error {
		var err error
		v, err = fn(tx)
		return err
	})
	return v, err
}

// writeValue runs fn in a write transaction and returns its value.
func writeValue[T any](ctx context.Context, db *DB, fn func(tx *Tx) (T, error)) (T, error) {
	var v T
	err := db.write(ctx, func(tx *Tx) error {
		var err error
		v, err = fn(tx)
		return err
	})
	return v, err
}

// checkForeignSchema refuses, without writing to it, a SQLite file that
// holds tables of another program and no memtrace schema: migrating it would
// add memtrace's tables to someone else's database. It refuses a file of a
// newer schema (checkSchemaVersion) the same way. It opens the file
// read-only and leaves its journal mode alone: nothing has written to the
// file when it refuses, so "left as it is" is true byte for byte.
func checkForeignSchema(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 {
		return nil // a new or empty file gets the schema
	}
	ro, err := sql.Open("sqlite3", "file:"+escapePath(path)+"?mode=ro&_busy_timeout="+fmt.Sprint(busyTimeout.Milliseconds()))
	if err != nil {
		return openError(path, err)
	}
	defer ro.Close()
	rows, err := ro.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return openError(path, err)
	}
	defer rows.Close()
	var tables []string
	ours := false
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return openError(path, err)
		}
		if name == "migrations" || name == "memories" {
			ours = true
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		return openError(path, err)
	}
	if len(tables) == 0 || ours {
		return checkSchemaVersion(ctx, ro, path, ours)
	}
	shown := tables
	if len(shown) > 5 {
		shown = append(shown[:5:5], "…")
	}
	return engine.Errorf(engine.EINVALID,
		"not a memtrace database: %s is a SQLite file of another program (tables: %s); it was left as it is — give memtrace a file of its own with --db",
		path, strings.Join(shown, ", "))
}

// checkSchemaVersion refuses, on the read-only handle ro, a file whose
// header (user_version) or migrations table says a schema newer than this
// binary knows — before the writer opens it, which would switch it to WAL
// and create the migrations table. migrate checks the same again under the
// write lock.
func checkSchemaVersion(ctx context.Context, ro *sql.DB, path string, ours bool) error {
	known := 0
	for _, m := range migrations() {
		known = max(known, m.Version)
	}
	var version int
	if err := ro.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return openError(path, err)
	}
	if version > known {
		return engine.Errorf(engine.EINVALID,
			"this database says it has schema %d (user_version), newer than this memtrace knows (%d); upgrade memtrace — the file was left as it is", version, known)
	}
	if !ours {
		return nil
	}
	var hasTable int
	if err := ro.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'migrations'`).Scan(&hasTable); err != nil || hasTable == 0 {
		return nil // migrate reports what it finds
	}
	applied, err := appliedMigrations(ctx, ro)
	if err != nil {
		return openError(path, err)
	}
	for name := range applied {
		if v, ok := migrationVersion(name); ok && v > known {
			return engine.Errorf(engine.EINVALID,
				"this database was written by a newer memtrace (schema %d > %d); upgrade memtrace — the file was left as it is", v, known)
		}
	}
	return nil
}

// HoldsSchema reports, without writing to it, whether the SQLite file at
// path holds a memtrace schema (its memories or migrations table): false
// for an empty file, or a SQLite file with no tables, which Open would
// give the schema — a command that only reads must not (checkDatabase in
// the CLI). A file of another program's tables is refused as Open does.
func HoldsSchema(ctx context.Context, path string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, nil
	}
	if fi.Size() == 0 {
		return false, nil
	}
	if err := checkDatabaseFile(path); err != nil {
		return false, err
	}
	if err := checkForeignSchema(ctx, path); err != nil {
		return false, err
	}
	ro, err := sql.Open("sqlite3", "file:"+escapePath(path)+"?mode=ro&_busy_timeout="+fmt.Sprint(busyTimeout.Milliseconds()))
	if err != nil {
		return false, openError(path, err)
	}
	defer ro.Close()
	var n int
	if err := ro.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('memories', 'migrations')`).Scan(&n); err != nil {
		return false, openError(path, err)
	}
	return n > 0, nil
}
