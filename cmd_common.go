package main

import (
	"errors"
	"flag"
	"os"
	"time"

	"memtrace/engine"
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
	return store.Open(e.ctx, e.dbPath, time.Now)
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
