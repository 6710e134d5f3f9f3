package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"memtrace/internal/outfile"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
	"memtrace/internal/version"
)

// backupStepPages is how many pages one backup step copies between checks
// of the context.
const backupStepPages = 1024

// Backup writes dir/memtrace-<timestamp>.db with SQLite's online backup API
// (readers and writers carry on meanwhile) and dir/memtrace-<timestamp>.json,
// a dump of every memory in id order read from that backup, so the two agree.
// Each gets a .sha256 file in sha256sum format beside it.
//
// On PostgreSQL it writes the JSON dump and its .sha256 only (DB is ""):
// a physical backup of a space is the server's, `pg_dump` (PGDumpCommand).
func (db *DB) Backup(ctx context.Context, dir string) (*engine.BackupInfo, error) {
	if db.pg {
		return db.backupDump(ctx, dir)
	}
	perm := db.FilePerm()
	if err := outfile.MkdirAll(dir, perm); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot create backup directory %s: %v", dir, err)
	}
	base, err := backupBase(dir, db.Now().Format("20060102T150405Z"))
	if err != nil {
		return nil, err
	}
	info := &engine.BackupInfo{DB: base + ".db", Dump: base + ".json", MemtraceVersion: version.String()}
	ok := false
	defer func() {
		if !ok {
			for _, p := range []string{info.DB, info.DB + ".sha256", info.Dump, info.Dump + ".sha256"} {
				os.Remove(p)
			}
		}
	}()

	dest, err := sql.Open("sqlite3", dsnPlain(info.DB))
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	defer dest.Close()
	dest.SetMaxOpenConns(1)
	if err := db.copyTo(ctx, dest); err != nil {
		return nil, err
	}
	// The copy carries the source's WAL flag in its header; a backup should
	// be one self-contained file that opens even from read-only media.
	if _, err := dest.ExecContext(ctx, `PRAGMA journal_mode = DELETE`); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	dump, n, err := dumpMemories(ctx, dest)
	if err != nil {
		return nil, err
	}
	if err := dest.Close(); err != nil {
		return nil, fmt.Errorf("backup: close %s: %w", info.DB, err)
	}
	// The copy has the database's own mode: a 0600 database never leaves
	// a 0644 copy of itself.
	if err := os.Chmod(info.DB, perm); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot set the mode of %s: %v", info.DB, err)
	}
	if err := outfile.WriteFile(info.Dump, dump, perm); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot write %s: %v", info.Dump, err)
	}
	if info.DBSHA256, err = writeChecksum(info.DB, perm); err != nil {
		return nil, err
	}
	if info.DumpSHA256, err = writeChecksum(info.Dump, perm); err != nil {
		return nil, err
	}
	info.Memories = n
	ok = true
	// An erasure lists the backups written before it (they hold the text).
	for _, p := range []string{info.DB, info.Dump} {
		if err := db.RecordArtifact(ctx, engine.Artifact{Kind: engine.ArtifactBackup, Path: p}); err != nil {
			return info, err
		}
	}
	return info, nil
}

// backupBase picks dir/memtrace-<stamp>, adding -2, -3 … when a backup of
// the same second exists, so a backup never overwrites another.
func backupBase(dir, stamp string) (string, error) {
	for i := 1; i < 1000; i++ {
		base := filepath.Join(dir, "memtrace-"+stamp)
		if i > 1 {
			base += fmt.Sprintf("-%d", i)
		}
		_, errDB := os.Stat(base + ".db")
		_, errDump := os.Stat(base + ".json")
		if errors.Is(errDB, os.ErrNotExist) && errors.Is(errDump, os.ErrNotExist) {
			return base, nil
		}
	}
	return "", engine.Errorf(engine.ECONFLICT, "too many backups named memtrace-%s in %s", stamp, dir)
}

// dsnPlain opens a backup file as an ordinary rollback-journal database.
func dsnPlain(path string) string {
	return "file:" + escapePath(path) + "?_journal_mode=DELETE"
}

// copyTo runs the online backup from a reader connection into dest.
func (db *DB) copyTo(ctx context.Context, dest *sql.DB) error {
	src, err := db.reader.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer src.Close()
	dst, err := dest.Conn(ctx)
	if err != nil {
		return engine.Errorf(engine.EUNAVAIL, "cannot create backup file: %v", err)
	}
	defer dst.Close()
	return src.Raw(func(srcRaw any) error {
		return dst.Raw(func(dstRaw any) error {
			s, ok1 := srcRaw.(*sqlite3.SQLiteConn)
			d, ok2 := dstRaw.(*sqlite3.SQLiteConn)
			if !ok1 || !ok2 {
				return fmt.Errorf("backup: unexpected driver connection %T", srcRaw)
			}
			b, err := d.Backup("main", s, "main")
			if err != nil {
				return fmt.Errorf("backup: %w", err)
			}
			for {
				if err := ctx.Err(); err != nil {
					b.Close()
					return err
				}
				done, err := b.Step(backupStepPages)
				if err != nil {
					b.Close()
					return fmt.Errorf("backup: %w", err)
				}
				if done {
					break
				}
			}
			if err := b.Close(); err != nil {
				return fmt.Errorf("backup: %w", err)
			}
			return nil
		})
	})
}

// memoryDump is the JSON dump's shape: the memories as `memtrace list
// --json` prints them, and which memtrace wrote the dump.
type memoryDump struct {
	Memtrace version.Info     `json:"memtrace"`
	Memories []*engine.Memory `json:"memories"`
}

// dumpMemories reads every memory of a database in id order and encodes
// them as indented JSON with a trailing newline; the encoding of the same
// memories is byte-for-byte the same every time.
func dumpMemories(ctx context.Context, conn queryer) ([]byte, int, error) {
	rows, err := conn.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memories ORDER BY id`)
	if err != nil {
		return nil, 0, fmt.Errorf("dump memories: %w", err)
	}
	defer rows.Close()
	d := memoryDump{Memtrace: version.Get(), Memories: []*engine.Memory{}}
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("dump memories: %w", err)
		}
		d.Memories = append(d.Memories, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("dump memories: %w", err)
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, 0, fmt.Errorf("dump memories: %w", err)
	}
	return append(b, '\n'), len(d.Memories), nil
}

// DumpMemories returns the JSON dump of every memory, as Backup writes it.
func (db *DB) DumpMemories(ctx context.Context) ([]byte, error) {
	var b []byte
	err := db.read(ctx, func(tx *Tx) error {
		var err error
		b, _, err = dumpMemories(ctx, tx.tx)
		return err
	})
	return b, err
}

// writeChecksum writes path.sha256 ("<hex>  <name>\n", as sha256sum does,
// so `sha256sum -c` verifies it from the backup directory) and returns the
// hex digest.
func writeChecksum(path string, perm os.FileMode) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", engine.Errorf(engine.EUNAVAIL, "cannot read %s: %v", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", engine.Errorf(engine.EUNAVAIL, "cannot read %s: %v", path, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	line := sum + "  " + filepath.Base(path) + "\n"
	if err := outfile.WriteFile(path+".sha256", []byte(line), perm); err != nil {
		return "", engine.Errorf(engine.EUNAVAIL, "cannot write %s.sha256: %v", path, err)
	}
	return sum, nil
}

// backupDump writes the JSON dump of a PostgreSQL space and its .sha256.
func (db *DB) backupDump(ctx context.Context, dir string) (*engine.BackupInfo, error) {
	perm := db.FilePerm()
	if err := outfile.MkdirAll(dir, perm); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot create backup directory %s: %v", dir, err)
	}
	base, err := backupBase(dir, db.Now().Format("20060102T150405Z"))
	if err != nil {
		return nil, err
	}
	info := &engine.BackupInfo{Dump: base + ".json", MemtraceVersion: version.String()}
	var dump []byte
	var n int
	if err := db.read(ctx, func(tx *Tx) error {
		var err error
		dump, n, err = dumpMemories(ctx, tx.tx)
		return err
	}); err != nil {
		return nil, err
	}
	if err := outfile.WriteFile(info.Dump, dump, perm); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot write %s: %v", info.Dump, err)
	}
	if info.DumpSHA256, err = writeChecksum(info.Dump, perm); err != nil {
		os.Remove(info.Dump)
		return nil, err
	}
	info.Memories = n
	return info, db.RecordArtifact(ctx, engine.Artifact{Kind: engine.ArtifactBackup, Path: info.Dump})
}

// PGDumpCommand is the command that takes a physical backup of the space
// (schema) of a PostgreSQL database, for `memtrace backup` to print.
func (db *DB) PGDumpCommand(dir string) string {
	return fmt.Sprintf("pg_dump --format=custom --schema=%s --file=%s '%s'", db.space,
		filepath.Join(dir, "memtrace-"+db.space+".pgdump"), stripSearchPath(db.path))
}

// queryer is what dumpMemories reads through: a pool or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}
