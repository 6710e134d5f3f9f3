package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/store"
)

// missingDatabase is the one error of every command that needs a database
// that is not there.
func missingDatabase(path string) error {
	if store.IsDSN(path) {
		p := store.RedactDSN(path) // a password is not repeated in messages
		return engine.Errorf(engine.ENOTFOUND,
			"no memtrace space at %s; build one with `memtrace demo --no-tui --db '%s'` (the bundled demo), `memtrace ingest --db '%s' FILE.jsonl`, or copy one in with `memtrace copy --from FILE.db --to '%s'`", p, p, p, p)
	}
	return engine.Errorf(engine.ENOTFOUND,
		"no database at %s; build one with `memtrace demo --no-tui --db %s` (the bundled demo) or `memtrace ingest --db %s FILE.jsonl`", path, path, path)
}

// checkDatabase returns missingDatabase when there is no file at path, or
// no memtrace space at a PostgreSQL DSN, and refuses, without writing to
// it, a file that holds no memtrace schema (empty, or a SQLite file with
// no tables) or one of a newer schema.
func checkDatabase(path string) error {
	if store.IsDSN(path) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ok, err := store.SpaceExists(ctx, path)
		if err != nil {
			return err
		}
		if !ok {
			return missingDatabase(path)
		}
		return nil
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return missingDatabase(path)
	}
	// An empty file (or a SQLite file without tables) would get the
	// schema at open: a command that needs a database refuses it as
	// missing, leaving the file as it is.
	ok, err := store.HoldsSchema(context.Background(), path)
	if err != nil {
		return err
	}
	if !ok {
		return engine.Errorf(engine.ENOTFOUND,
			"no memtrace database in %s (the file holds no memtrace tables; it was left as it is); build one with `memtrace demo --no-tui --db %s` (the bundled demo) or `memtrace ingest --db %s FILE.jsonl`", path, path, path)
	}
	return nil
}

// settingClock is the settings key of a database's pinned clock. A demo or
// fixture database pins "now" to the end of its conversation, so that what
// it remembers today does not depend on the day it is opened; `--at`
// offsets are relative to it. Without the setting the wall clock is used.
const settingClock = engine.SettingClock

// The open path. Every command opens its database through one of these:
// openStoreAt (the store alone) or openEngineAt (the store and the engine
// over it), or their env forms openStore and openEngine for --db. With
// mustExist a missing file is missingDatabase, not a new empty database;
// the store and the engine share one clock, the database's pinned clock
// when it has one (settingClock), else the wall clock.

// openStoreAt opens the database at path and returns it with its clock
// (the store's own: the pinned time when the database pins one, else the
// wall clock).
func openStoreAt(ctx context.Context, path string, mustExist bool) (*store.DB, func() time.Time, error) {
	if mustExist {
		if err := checkDatabase(path); err != nil {
			return nil, nil, err
		}
	}
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		return nil, nil, err
	}
	// The store reads a pinned clock that is not RFC 3339 as the wall
	// clock; the CLI refuses it and says how to fix it.
	if _, err := pinnedClock(ctx, db); err != nil {
		db.Close()
		return nil, nil, err
	}
	return db, db.Now, nil
}

// openStore opens the database at e.dbPath (see openStoreAt).
func openStore(e *env, mustExist bool) (*store.DB, func() time.Time, error) {
	return openStoreAt(e.ctx, e.dbPath, mustExist)
}

// openEngineAt opens the database at path and the engine over it; o.Store
// and o.Now are filled in. The returned func closes the database.
func openEngineAt(ctx context.Context, path string, mustExist bool, o engine.Options) (*engine.Engine, *store.DB, func(), error) {
	db, now, err := openStoreAt(ctx, path, mustExist)
	if err != nil {
		return nil, nil, nil, err
	}
	return engineOver(ctx, db, now, o)
}

// freeAfterOpen is the number of memories from which an open returns the
// garbage of its load to the system at once (debug.FreeOSMemory: one full
// collection): the decoded rows and blobs the caches copied are garbage
// the collector would otherwise keep resident until it next ran and the
// scavenger after it. At 100k memories the resident set after the open
// fell from 600 to 255 MB (≈ 2.5 KB a memory) for about 60 ms of CPU;
// below this size the garbage is too small to be worth a collection.
const freeAfterOpen = 10_000

// engineOver opens the engine over db; on failure it closes db.
func engineOver(ctx context.Context, db *store.DB, now func() time.Time, o engine.Options) (*engine.Engine, *store.DB, func(), error) {
	o.Store, o.Now = db, now
	if err := withRecordedPolicy(ctx, db, &o); err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	eng, err := engine.Open(ctx, o)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	if eng.Len() >= freeAfterOpen {
		debug.FreeOSMemory()
	}
	stop := listenForChanges(ctx, db, eng)
	return eng, db, func() { stop(); db.Close() }, nil
}

// openEngine opens the engine on e.dbPath (see openEngineAt) with the
// database's embedder, or the one --embedder asks for when the database
// has no memories yet (chooseEmbedder). Commands that may create the
// database (mustExist false) are the writers: an empty database records
// the embedder asked for.
func openEngine(e *env, mustExist bool, o engine.Options) (*engine.Engine, *store.DB, func(), error) {
	return openEngineAdjusted(e, mustExist, o, nil)
}

// openEngineAdjusted is openEngine with adjust, when not nil, laid over
// the policy the engine opens with (o.Config, else the database's recorded
// one): a flag that sets one key (--detail) keeps every other key of the
// recorded policy.
func openEngineAdjusted(e *env, mustExist bool, o engine.Options, adjust func(*engine.Config)) (*engine.Engine, *store.DB, func(), error) {
	db, now, err := openStoreAt(e.ctx, e.dbPath, mustExist)
	if err != nil {
		return nil, nil, nil, err
	}
	if o.Embedder == nil {
		if o.Embedder, err = chooseEmbedder(e, db, !mustExist); err != nil {
			db.Close()
			return nil, nil, nil, err
		}
	}
	if adjust != nil {
		if err := withRecordedPolicy(e.ctx, db, &o); err != nil {
			db.Close()
			return nil, nil, nil, err
		}
		adjust(&o.Config)
	}
	return engineOver(e.ctx, db, now, o)
}

// openExisting opens the engine on e.dbPath, which must exist; the
// returned func closes the database.
func openExisting(e *env) (*engine.Engine, func(), error) {
	eng, _, closeDB, err := openEngine(e, true, engine.Options{})
	return eng, closeDB, err
}

// openOneShot is openExisting for a command that answers one request
// and exits (engine.Options.OneShot): nothing that pays off only across
// many requests is built at open.
func openOneShot(e *env) (*engine.Engine, func(), error) {
	eng, _, closeDB, err := openEngine(e, true, engine.Options{OneShot: true})
	return eng, closeDB, err
}

// openOrCreate opens the engine on e.dbPath, creating the database when
// it is missing; the returned func closes it.
func openOrCreate(e *env) (*engine.Engine, func(), error) {
	eng, _, closeDB, err := openEngine(e, false, engine.Options{})
	return eng, closeDB, err
}

// pinnedClock is the database's pinned clock, or the zero time.
func pinnedClock(ctx context.Context, db engine.Store) (time.Time, error) {
	v, err := db.GetSetting(ctx, settingClock)
	if err != nil || v == "" {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, engine.Errorf(engine.EINVALID, "the database pins its clock to %q, which is not RFC 3339; fix it with `memtrace clock --unset` or `memtrace clock 2026-07-21T09:00:00Z`", v)
	}
	return t.UTC(), nil
}

// openJudgedEngine opens the engine at e.dbPath (with mustExist it must be
// there, else it is created) with the judge jf chooses. closeEngine closes
// the store, then releases the judge.
func openJudgedEngine(e *env, jf *judgeFlags, mustExist bool) (eng *engine.Engine, closeEngine func(), err error) {
	if mustExist {
		// Before the judge is asked: a wrong path is the first thing to say.
		if err := checkDatabase(e.dbPath); err != nil {
			return nil, nil, err
		}
	}
	opts, release, err := jf.options(e)
	if err != nil {
		return nil, nil, err
	}
	eng, _, closeDB, err := openEngineAdjusted(e, mustExist, opts, jf.adjustConfig)
	if err != nil {
		release()
		return nil, nil, err
	}
	if jf.model != "" && jf.cache != "" {
		noteJudgeCache(e, eng.Store(), jf.cache)
	}
	return eng, func() { closeDB(); release() }, nil
}

// databaseExists reports whether there is a database at path (a file, or
// a memtrace space at a DSN).
func databaseExists(path string) (bool, error) {
	err := checkDatabase(path)
	if engine.ErrorCode(err) == engine.ENOTFOUND {
		return false, nil
	}
	return err == nil, err
}

// dataDir is the directory files that belong with the database go to by
// default (triage verdicts, backups): the file's own directory, or the
// working directory for a PostgreSQL space.
func dataDir(path string) string {
	if store.IsDSN(path) {
		return "."
	}
	return filepath.Dir(path)
}

// scratchDatabase returns where a command may build a database of its own
// that it throws away afterwards (a golden set's fixture, a benchmark's
// conversations): name in a new temporary directory, or — when --db is a
// PostgreSQL DSN — a new space (scratch_<random>_<name>) on that server,
// so that the run exercises the backend asked for. done removes it.
func scratchDatabase(e *env, name string) (path string, done func(), err error) {
	if store.IsDSN(e.dbPath) {
		var b [4]byte
		rand.Read(b[:])
		space := fmt.Sprintf("scratch_%x_%s", b, strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, strings.ToLower(name)))
		if len(space) > 63 {
			space = space[:63]
		}
		dsn := store.SpaceDSN(e.dbPath, space)
		return dsn, func() { _ = store.DropSpace(context.WithoutCancel(e.ctx), dsn) }, nil
	}
	dir, err := os.MkdirTemp("", "memtrace-"+name+"-")
	if err != nil {
		return "", nil, fmt.Errorf("temporary directory: %w", err)
	}
	return filepath.Join(dir, name+".db"), func() { os.RemoveAll(dir) }, nil
}

// queryText is the query TEXT the positional words make; purpose ends
// the message when there are none ("give the query TEXT to " + purpose).
func queryText(words []string, purpose string) (string, error) {
	text := strings.TrimSpace(strings.Join(words, " "))
	if text == "" {
		return "", usageError{"give the query TEXT to " + purpose}
	}
	return text, nil
}

// writeJSON prints v as indented JSON, terminal-safe: C1, bidi and the
// other controls safetext.EscapeJSON names leave as \uXXXX escapes, so the
// bytes are inert on a terminal and decode to the same text.
func writeJSON(w io.Writer, v any) error {
	return encodeJSON(w, v, true)
}

// writeJSONText is writeJSON with <, > and & left as they are, for
// documents whose strings are memory text.
func writeJSONText(w io.Writer, v any) error {
	return encodeJSON(w, v, false)
}

func encodeJSON(w io.Writer, v any, escapeHTML bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(safetext.EscapeJSON(buf.Bytes()))
	return err
}

// releaseVectorPages hands the mapped vector file's pages back to the page
// cache after a large open, for a process that stays (mcp, the TUI): its
// resident set drops by the file's size and a recall maps back only the
// rows it reads. A one-shot command does not: it would fault the pages it
// is about to read back in (about 0.2 s more wall for one recall at 100k).
func releaseVectorPages(eng *engine.Engine) {
	if r, ok := eng.Store().(interface{ ReleaseVectorPages() }); ok && eng.Len() >= freeAfterOpen {
		r.ReleaseVectorPages()
	}
}
