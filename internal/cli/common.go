package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/engine/safetext"
	"memtrace/store"
)

// openStore opens the database at e.dbPath with the real clock. With
// mustExist, a missing file is an error that says how to make one, rather
// than a new empty database.
func openStore(e *env, mustExist bool) (*store.DB, error) {
	if mustExist {
		if _, err := os.Stat(e.dbPath); errors.Is(err, os.ErrNotExist) {
			return nil, engine.Errorf(engine.ENOTFOUND,
				"no database at %s; run `memtrace demo --no-tui --db %s` or `memtrace ingest FILE` first", e.dbPath, e.dbPath)
		}
	}
	return store.Open(e.ctx, e.dbPath, nil) // the database's clock: pinned when it pins one
}

// parseArgs parses flags that may come before or after the positional
// arguments (`backup DIR --json` as well as `backup --json DIR`) and returns
// the positional arguments. A lone "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// settingClock is the settings key of a database's pinned clock. A demo or
// fixture database pins "now" to the end of its conversation, so that what
// it remembers today does not depend on the day it is opened; `--at`
// offsets are relative to it. Without the setting the wall clock is used.
const settingClock = "clock.now"

// openEngine opens the database at e.dbPath and the engine over it, with the
// database's pinned clock when it has one. o.Store and o.Now are filled in.
// The returned func closes the database.
func openEngine(e *env, mustExist bool, o engine.Options) (*engine.Engine, *store.DB, func(), error) {
	db, err := openStore(e, mustExist)
	if err != nil {
		return nil, nil, nil, err
	}
	now, err := dbClock(e, db)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	o.Store, o.Now = db, now
	eng, err := engine.Open(e.ctx, o)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	return eng, db, func() { db.Close() }, nil
}

// dbClock returns the database's pinned clock, or time.Now.
func dbClock(e *env, db engine.Store) (func() time.Time, error) {
	v, err := db.GetSetting(e.ctx, settingClock)
	if err != nil || v == "" {
		return time.Now, err
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, engine.Errorf(engine.EINVALID, "the database pins its clock to %q, which is not RFC 3339; fix it with `memtrace clock --unset` or `memtrace clock 2026-07-21T09:00:00Z`", v)
	}
	return func() time.Time { return t }, nil
}

// openJudgedEngine opens the engine at e.dbPath, creating the database when
// missing, with the judge jf chooses. closeEngine closes the store, then
// releases the judge.
func openJudgedEngine(e *env, jf *judgeFlags) (eng *engine.Engine, closeEngine func(), err error) {
	opts, release, err := jf.options(e)
	if err != nil {
		return nil, nil, err
	}
	eng, _, closeDB, err := openEngine(e, false, opts)
	if err != nil {
		release()
		return nil, nil, err
	}
	return eng, func() { closeDB(); release() }, nil
}

// queryText parses args with fs and returns the query TEXT its positional
// words make; purpose ends the message when there are none ("give the
// query TEXT to " + purpose).
func queryText(fs *flag.FlagSet, args []string, purpose string) (string, error) {
	words, err := parseArgs(fs, args)
	if err != nil {
		return "", usageError{err.Error()}
	}
	text := strings.TrimSpace(strings.Join(words, " "))
	if text == "" {
		return "", usageError{"give the query TEXT to " + purpose}
	}
	return text, nil
}

// subcommand is one word of a command with subcommands (`bench locomo`).
type subcommand struct {
	name string
	run  func(e *env, args []string) error
}

// runSubcommand runs the subcommand args[0] names; what names the family
// in the usage errors ("name a benchmark: locomo or recall").
func runSubcommand(e *env, args []string, what string, subs ...subcommand) error {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.name
	}
	choice := strings.Join(names, " or ")
	if len(args) == 0 {
		return usageError{"name a " + what + ": " + choice}
	}
	for _, s := range subs {
		if s.name == args[0] {
			return s.run(e, args[1:])
		}
	}
	return usageError{fmt.Sprintf("unknown %s %q: use %s", what, args[0], choice)}
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
