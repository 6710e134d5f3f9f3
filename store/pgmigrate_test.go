package store

import (
	"slices"
	"testing"
)

// Every SQLite migration has a PostgreSQL twin of the same number and
// name, and PostgreSQL has none of its own: both stores hold the same
// schema, and a SQLite migration added without its twin fails here.
func TestPostgresMigrationTwins(t *testing.T) {
	names := func(ms []migration) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Name)
		}
		return out
	}
	lite, pg := names(migrations()), names(pgMigrations())
	for _, n := range lite {
		if !slices.Contains(pg, n) {
			t.Errorf("SQLite migration %s has no PostgreSQL twin: add store/pgmigrations/%s in PostgreSQL's types", n, n)
		}
	}
	for _, n := range pg {
		if !slices.Contains(lite, n) {
			t.Errorf("PostgreSQL migration %s has no SQLite original in store/migrations", n)
		}
	}
}
