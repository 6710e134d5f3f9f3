package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"memtrace/engine"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one numbered schema step, e.g. 0002_traces_settings.sql.
type migration struct {
	Name    string
	Version int
	SQL     string
}

// migrations returns every embedded SQLite migration in version order.
func migrations() []migration { return embeddedMigrations(migrationFS, "migrations") }

// embeddedMigrations returns the migrations in dir of fsys in version order.
func embeddedMigrations(fsys embed.FS, dir string) []migration {
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		panic(err) // the pattern is constant; Glob fails only on a bad pattern
	}
	var ms []migration
	for _, path := range names {
		name := strings.TrimPrefix(path, dir+"/")
		v, ok := migrationVersion(name)
		if !ok {
			panic(fmt.Sprintf("store: migration %s does not start with a number", name))
		}
		body, err := fsys.ReadFile(path)
		if err != nil {
			panic(err)
		}
		ms = append(ms, migration{Name: name, Version: v, SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	return ms
}

// migrationVersion reads the leading number of a migration name.
func migrationVersion(name string) (int, bool) {
	num, _, ok := strings.Cut(name, "_")
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(num)
	return v, err == nil && v > 0
}

// migrate applies the migrations not yet recorded in the migrations table,
// each in its own transaction. It refuses a database that records a
// migration newer than any this binary knows: that schema was written by a
// newer memtrace and an older one must not write to it.
func migrate(ctx context.Context, db *sql.DB, ms []migration) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
		name       TEXT PRIMARY KEY,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	)`); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	applied, err := appliedMigrations(ctx, db)
	if err != nil {
		return err
	}
	known := 0
	for _, m := range ms {
		known = max(known, m.Version)
	}
	newest := 0
	for name := range applied {
		if v, ok := migrationVersion(name); ok {
			newest = max(newest, v)
		}
	}
	if newest > known {
		return engine.Errorf(engine.EINVALID,
			"this database was written by a newer memtrace (schema %d > %d); upgrade memtrace", newest, known)
	}
	// user_version is the same fact in the file header: a value above what
	// this binary knows is a newer schema too, and is refused unchanged.
	var version int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("read user_version: %w", err)
	}
	if version > known {
		return engine.Errorf(engine.EINVALID,
			"this database says it has schema %d (user_version), newer than this memtrace knows (%d); upgrade memtrace — the file was left as it is", version, known)
	}
	for _, m := range ms {
		if applied[m.Name] {
			continue
		}
		if err := applyMigration(ctx, db, m); err != nil {
			return err
		}
	}
	// Set user_version only when it changes: writing it, even to the same
	// value, rewrites the header page, and a read-only open must leave the
	// file byte for byte as it was.
	if version != known {
		if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", known)); err != nil {
			return fmt.Errorf("set user_version: %w", err)
		}
	}
	return nil
}

func appliedMigrations(ctx context.Context, db *sql.DB) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM migrations`)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	defer rows.Close()
	applied := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("read migrations: %w", err)
		}
		applied[name] = true
	}
	return applied, rows.Err()
}

func applyMigration(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", m.Name, err)
	}
	defer tx.Rollback()
	// Another process may have applied it while this one waited for the
	// write lock (BEGIN IMMEDIATE); check again inside the transaction.
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations WHERE name = ?`, m.Name).Scan(&done); err != nil {
		return fmt.Errorf("migrate %s: %w", m.Name, err)
	} else if done > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("migrate %s: %w", m.Name, err)
	}
	if err := runMigrationStep(ctx, tx, false, m); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name) VALUES (?)`, m.Name); err != nil {
		return fmt.Errorf("migrate %s: %w", m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate %s: %w", m.Name, err)
	}
	return nil
}
