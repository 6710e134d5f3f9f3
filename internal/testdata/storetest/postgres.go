package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"memtrace/store"
)

// Environment of the PostgreSQL tests (.ci/postgres.sh sets both).
const (
	// EnvPG is the DSN of a PostgreSQL database the tests may create
	// schemas in, e.g. postgres://memtrace@127.0.0.1:5432/postgres.
	EnvPG = "MEMTRACE_TEST_PG"
	// EnvRequirePG set to 1 (or CI=true) turns a missing or unreachable
	// server from a skip into a failure: CI must run these tests.
	EnvRequirePG = "MEMTRACE_REAL_PG"
)

// RequirePG reports whether a test that finds no server must fail.
func RequirePG() bool {
	return os.Getenv(EnvRequirePG) == "1" || os.Getenv("CI") == "true"
}

// PGBase returns the server DSN from MEMTRACE_TEST_PG, or skips the test
// loudly (fails it under CI) when there is none or it does not answer.
func PGBase(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv(EnvPG)
	why := ""
	if dsn == "" {
		why = EnvPG + " is not set"
	} else if err := ping(dsn); err != nil {
		why = "the server at " + store.RedactDSN(dsn) + " does not answer: " + err.Error()
	}
	if why != "" {
		if RequirePG() {
			tb.Fatalf("PostgreSQL test cannot run: %s (CI must start the server: .ci/postgres.sh)", why)
		}
		tb.Logf("SKIP (no PostgreSQL): %s; run `eval \"$(.ci/postgres.sh env)\"` to run it", why)
		tb.Skipf("PostgreSQL test skipped: %s", why)
	}
	return dsn
}

func ping(dsn string) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return err
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return db.PingContext(ctx)
}

// PGDSN returns the DSN of a fresh memory space (a schema no one else
// uses) on the test server; the schema is dropped when the test ends.
func PGDSN(tb testing.TB) string {
	tb.Helper()
	base := PGBase(tb)
	var b [6]byte
	rand.Read(b[:])
	space := "t_" + strings.ToLower(hex.EncodeToString(b[:]))
	tb.Cleanup(func() { DropSpace(tb, base, space) })
	return store.SpaceDSN(base, space)
}

// DropSpace drops a space's schema and everything in it.
func DropSpace(tb testing.TB, base, space string) {
	cfg, err := pgx.ParseConfig(base)
	if err != nil {
		tb.Errorf("drop space %s: %v", space, err)
		return
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), `DROP SCHEMA IF EXISTS `+pgx.Identifier{space}.Sanitize()+` CASCADE`); err != nil {
		tb.Errorf("drop space %s: %v", space, err)
	}
}

// PGOpen opens a fresh space with clock now and closes it when the test
// ends.
func PGOpen(tb testing.TB, now func() time.Time) *store.DB {
	tb.Helper()
	return MustOpenPath(tb, PGDSN(tb), now)
}

// Backend is one store implementation the contract suite runs on.
type Backend struct {
	Name string
	// Open opens a fresh, empty database of this backend with clock now
	// (nil: the database's own) and closes it when the test ends.
	Open func(tb testing.TB, now func() time.Time) *store.DB
	// Fresh returns the path or DSN of a fresh, not yet created database.
	Fresh func(tb testing.TB) string
}

// MustOpen is Open with the wall clock.
func (b Backend) MustOpen(tb testing.TB) *store.DB { tb.Helper(); return b.Open(tb, time.Now) }

// MustOpenClock is Open with clock now.
func (b Backend) MustOpenClock(tb testing.TB, now func() time.Time) *store.DB {
	tb.Helper()
	return b.Open(tb, now)
}

// Backends are SQLite (a real file in a temp dir) and PostgreSQL (a fresh
// schema on the test server).
var Backends = []Backend{
	{Name: "sqlite", Open: MustOpenClock, Fresh: func(tb testing.TB) string { return tb.TempDir() + "/memtrace.db" }},
	{Name: "postgres", Open: PGOpen, Fresh: PGDSN},
}

// ForEachBackend runs fn as a subtest per backend.
func ForEachBackend(t *testing.T, fn func(t *testing.T, b Backend)) {
	for _, b := range Backends {
		t.Run(b.Name, func(t *testing.T) { fn(t, b) })
	}
}
