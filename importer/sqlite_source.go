package importer

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3" // the driver memtrace's store uses
)

// Another program's SQLite database (Chroma's chroma.sqlite3, mem0's
// history.db) is opened read-only through a file: URI, so that reading it
// never writes to it — no journal, no schema, no user_version. These are
// the only SQL statements outside the store package: they read formats
// other programs own.

// openForeignSQLite opens path read-only. It refuses a symbolic link.
func openForeignSQLite(path string) (*sql.DB, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, errSymlink(path)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite3", u.String())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	return db, nil
}

// sqliteTables lists the tables of the database at path.
func sqliteTables(path string) (map[string]bool, error) {
	db, err := openForeignSQLite(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return tablesOf(db)
}

func tablesOf(db *sql.DB) (map[string]bool, error) {
	return names(db, "list tables", `SELECT name FROM sqlite_master WHERE type = 'table'`)
}

// columnsOf lists the columns of table.
func columnsOf(db *sql.DB, table string) (map[string]bool, error) {
	return names(db, "columns of "+table, `SELECT name FROM pragma_table_info(?)`, table)
}

// names runs a query of one text column and returns the set of its values.
func names(db *sql.DB, what, query string, args ...any) (map[string]bool, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}
