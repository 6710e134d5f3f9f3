package cli

import (
	"flag"
	"fmt"

	"memtrace/internal/textable"
	"memtrace/store"
)

// cmdSpaces runs `memtrace spaces`: the memory spaces of the PostgreSQL
// server --db points at (one schema each), with their counts; for a SQLite
// file, the file itself (one file is one space).
func cmdSpaces(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the spaces as JSON")
	return func(e *env, words []string) error {
		if len(words) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", words[0])}
		}
		var spaces []store.SpaceInfo
		if store.IsDSN(e.dbPath) {
			var err error
			if spaces, err = store.ListSpaces(e.ctx, e.dbPath); err != nil {
				return err
			}
		} else {
			db, _, err := openStore(e, true)
			if err != nil {
				return err
			}
			info, err := db.Info(e.ctx)
			db.Close()
			if err != nil {
				return err
			}
			spaces = []store.SpaceInfo{info}
		}
		if *asJSON {
			return writeJSON(e.stdout, struct {
				Spaces []store.SpaceInfo `json:"spaces"`
			}{spaces})
		}
		t := textable.New("SPACE", "MEMORIES", "ACTIVE", "CAPTURES", "BATCHES", "PENDING", "OPEN WITH --db").AlignRight(1, 2, 3, 4, 5)
		for _, s := range spaces {
			name := s.Space
			if name == "" {
				name = "(file)"
			}
			t.Add(name, s.Memories, s.Active, s.Captures, s.Batches, s.Proposals, s.DSN)
		}
		if err := t.Write(e.stdout); err != nil {
			return err
		}
		if len(spaces) == 0 {
			fmt.Fprintf(e.stdout, "no memtrace spaces on %s yet; make one with `memtrace ingest --db '%s' FILE.jsonl` (the space is the DSN's ?search_path=NAME)\n", store.RedactDSN(e.dbPath), store.SpaceDSN(store.RedactDSN(e.dbPath), "NAME"))
		}
		return nil
	}
}
