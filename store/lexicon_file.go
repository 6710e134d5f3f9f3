package store

import (
	"context"
	"fmt"
	"os"
	"strings"

	"memtrace/engine"
	"memtrace/engine/lexfile"
)

// The lexicon file (engine/lexfile) beside a SQLite database: the terms of
// every memory as the last full open tokenised them, which the engine's
// next open reads for every row whose id, seq and content are unchanged.
// The engine writes it; the store names it, counts the erasures a write
// checks against, and removes it on an erase.

var _ engine.LexiconFiles = (*DB)(nil)

// LexiconFile is the lexicon file of db and its mode; "" where there is
// none (PostgreSQL, an in-memory or URI database, as for the vector file).
// lexfile.FileEnv=off turns its use off, not its removal on an erase.
func (db *DB) LexiconFile() (string, os.FileMode) {
	if db.pg || db.path == "" || strings.HasPrefix(db.path, "file:") || strings.Contains(db.path, ":memory:") {
		return "", 0
	}
	return db.path + lexfile.Suffix, db.FilePerm()
}

// Erasures counts the erasures made in the database (the tombstones).
func (db *DB) Erasures(ctx context.Context) (int64, error) {
	var n int64
	if err := db.reader.QueryRowContext(ctx, `SELECT count(*) FROM erasures`).Scan(&n); err != nil {
		return 0, txError(db.path, "count erasures", err)
	}
	return n, nil
}

// removeLexiconFile deletes the lexicon file: after an erase no erased
// memory's terms may stay in it. The next open writes it anew. It reports
// whether there was one.
func (db *DB) removeLexiconFile() (bool, error) {
	path, _ := db.LexiconFile()
	if path == "" {
		return false, nil
	}
	_, err := os.Lstat(path)
	existed := err == nil
	if err := lexfile.Remove(path); err != nil {
		return existed, fmt.Errorf("remove the lexicon file %s: %w", path, err)
	}
	return existed, nil
}
