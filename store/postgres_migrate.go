package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"

	"memtrace/engine"
)

// The PostgreSQL migrations are numbered and named like SQLite's: each
// SQLite migration has a twin in pgmigrations/ (a test holds them to it),
// and both record their names in a migrations table.
//
//go:embed pgmigrations/*.sql
var pgMigrationFS embed.FS

// pgMigrations returns every embedded PostgreSQL migration in version order.
func pgMigrations() []migration { return embeddedMigrations(pgMigrationFS, "pgmigrations") }

// migratePG creates the space's schema when missing and applies the
// migrations it has not recorded, each in its own transaction, holding a
// session advisory lock on the space meanwhile so that two processes
// opening a new space at once do not both create it. A schema that holds
// tables of something else and no memtrace tables is refused untouched, and
// so is one written by a newer memtrace.
func migratePG(ctx context.Context, pool *sql.DB, space string) error {
	conn, err := pool.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtextextended('memtrace space ' || $1, 0))`, space); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtextextended('memtrace space ' || $1, 0))`, space)

	var tables, ours int
	if err := conn.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(*) FILTER (WHERE table_name IN ('migrations', 'memories'))
		FROM information_schema.tables WHERE table_schema = $1`, space).Scan(&tables, &ours); err != nil {
		return err
	}
	if tables > 0 && ours == 0 {
		return engine.Errorf(engine.EINVALID, "not a memtrace space: schema %s holds tables of another program; it was left as it is — give memtrace a space of its own with ?search_path=NAME", space)
	}
	if _, err := conn.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{space}.Sanitize()); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (
		name       TEXT PRIMARY KEY,
		applied_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
	)`); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	applied := map[string]bool{}
	rows, err := conn.QueryContext(ctx, `SELECT name FROM migrations`)
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return fmt.Errorf("read migrations: %w", err)
		}
		applied[name] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	ms := pgMigrations()
	known, newest := 0, 0
	for _, m := range ms {
		known = max(known, m.Version)
	}
	for name := range applied {
		if v, ok := migrationVersion(name); ok {
			newest = max(newest, v)
		}
	}
	if newest > known {
		return engine.Errorf(engine.EINVALID, "space %s was written by a newer memtrace (schema %d > %d); upgrade memtrace", space, newest, known)
	}
	for _, m := range ms {
		if applied[m.Name] {
			continue
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		if err := runMigrationStep(ctx, tx, true, m); err != nil {
			tx.Rollback()
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name) VALUES ($1)`, m.Name); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate %s: %w", m.Name, err)
		}
	}
	return nil
}
