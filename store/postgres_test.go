package store_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// What only the PostgreSQL store has: spaces as schemas, their creation on
// first open (also by two processes at once), a schema of another program
// refused untouched, and the dump-only backup.
func TestPostgresSpaces(t *testing.T) {
	ctx := context.Background()
	t.Run("NewSpaceOnFirstOpenConcurrently", func(t *testing.T) {
		dsn := storetest.PGDSN(t)
		if ok, err := store.SpaceExists(ctx, dsn); err != nil || ok {
			t.Fatalf("space exists before the first open: %v %v", ok, err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				db, err := store.Open(ctx, dsn, nil)
				if err == nil {
					err = db.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("open %d: %v", i, err)
			}
		}
		if ok, err := store.SpaceExists(ctx, dsn); err != nil || !ok {
			t.Fatalf("space missing after open: %v %v", ok, err)
		}
	})
	t.Run("ReopenKeepsAndListsSpaces", func(t *testing.T) {
		base := storetest.PGBase(t)
		a, b := storetest.PGDSN(t), storetest.PGDSN(t)
		dbA := storetest.MustOpenPath(t, a, nil)
		must(t, dbA.InsertMemory(ctx, newMemory("k1", "in space a"), engine.Actor{Name: "t", Batch: "b1"}))
		dbB := storetest.MustOpenPath(t, b, nil)
		if _, n, err := dbB.FindMemories(ctx, engine.MemoryFilter{}); err != nil || n != 0 {
			t.Fatalf("space b sees %d memories (%v); spaces must not share rows", n, err)
		}
		again := storetest.MustOpenPath(t, a, nil)
		if m, err := again.GetMemoryByKey(ctx, "k1"); err != nil || m.Content != "in space a" {
			t.Fatalf("reopened space a: %v %v", m, err)
		}
		spaces, err := store.ListSpaces(ctx, base)
		must(t, err)
		found := map[string]store.SpaceInfo{}
		for _, s := range spaces {
			found[s.Space] = s
		}
		if s := found[dbA.Space()]; s.Memories != 1 || s.Active != 1 || s.Batches != 1 {
			t.Errorf("space a listed as %+v", s)
		}
		if s, ok := found[dbB.Space()]; !ok || s.Memories != 0 {
			t.Errorf("space b listed as %+v (%v)", s, ok)
		}
	})
	t.Run("ErrBadSpaceName", func(t *testing.T) {
		base := storetest.PGBase(t)
		_, err := store.Open(ctx, store.SpaceDSN(base, `x"; DROP`), nil)
		wantCode(t, err, engine.EINVALID)
	})
	t.Run("ErrForeignSchema", func(t *testing.T) {
		dsn := storetest.PGDSN(t)
		space := strings.TrimPrefix(dsn[strings.Index(dsn, "search_path=")+len("search_path="):], "")
		if i := strings.IndexByte(space, '&'); i >= 0 {
			space = space[:i]
		}
		cfg, err := pgx.ParseConfig(storetest.PGBase(t))
		must(t, err)
		raw := stdlib.OpenDB(*cfg)
		defer raw.Close()
		_, err = raw.ExecContext(ctx, `CREATE SCHEMA `+space+`; CREATE TABLE `+space+`.orders (id int)`)
		must(t, err)
		_, err = store.Open(ctx, dsn, nil)
		wantCode(t, err, engine.EINVALID)
		var n int
		must(t, raw.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = $1`, space).Scan(&n))
		if n != 1 {
			t.Fatalf("the refused schema has %d tables, want its 1 left as it was", n)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		_, err := store.Open(ctx, "postgres://nobody@127.0.0.1:1/x?connect_timeout=2&search_path=a", nil)
		wantCode(t, err, engine.EUNAVAIL)
		if !strings.Contains(err.Error(), "cannot reach PostgreSQL") {
			t.Fatalf("unreachable server: %v", err)
		}
	})
	t.Run("BackupWritesDumpOnly", func(t *testing.T) {
		db := storetest.PGOpen(t, nil)
		must(t, db.InsertMemory(ctx, newMemory("k1", "backed up"), engine.Actor{Name: "t"}))
		dir := t.TempDir()
		info, err := db.Backup(ctx, dir)
		must(t, err)
		if info.DB != "" || info.Memories != 1 || info.DumpSHA256 == "" {
			t.Fatalf("backup info %+v", info)
		}
		b, err := os.ReadFile(info.Dump)
		must(t, err)
		if !strings.Contains(string(b), `"backed up"`) {
			t.Fatalf("dump lacks the memory: %s", b)
		}
		if cmd := db.PGDumpCommand(dir); !strings.Contains(cmd, "pg_dump") || !strings.Contains(cmd, "--schema="+db.Space()) || strings.Contains(cmd, "search_path") {
			t.Fatalf("pg_dump command %q", cmd)
		}
	})
}

// A password in a DSN never reaches a message, Path or a printed command.
func TestRedactDSN(t *testing.T) {
	for _, dsn := range []string{
		"postgres://agent:s3cret@db.internal:5432/memory?search_path=a1",
		"postgresql://agent@db.internal/memory?password=s3cret&search_path=a1",
	} {
		got := store.RedactDSN(dsn)
		if strings.Contains(got, "s3cret") || !strings.Contains(got, "db.internal") || !strings.Contains(got, "search_path=a1") {
			t.Errorf("RedactDSN(%q) = %q", dsn, got)
		}
	}
	if !store.IsDSN("postgres://x") || !store.IsDSN("postgresql://x") || store.IsDSN("memtrace.db") || store.IsDSN("./postgres://x") {
		t.Error("IsDSN")
	}
}
