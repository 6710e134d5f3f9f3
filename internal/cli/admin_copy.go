package cli

import (
	"flag"
	"fmt"
	"slices"

	"memtrace/internal/textable"
	"memtrace/store"
)

// cmdCopy runs `memtrace copy --from PATH|DSN --to PATH|DSN`: a whole
// memory space — memories with their vectors, audit, batches, proposals,
// captures, the review queue, lessons, golden runs, traces, settings —
// copied into a new database or space in one transaction, verified by row
// counts and a content checksum before it commits. --db is not used.
func cmdCopy(fs *flag.FlagSet) runFunc {
	from := fs.String("from", "", "the database to copy: a SQLite `PATH` or a postgres://…?search_path=SPACE DSN")
	to := fs.String("to", "", "the new database to copy into (`PATH` or DSN); refused unless empty")
	asJSON := fs.Bool("json", false, "print what was copied as JSON")
	return func(e *env, words []string) error {
		if len(words) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", words[0])}
		}
		if *from == "" || *to == "" {
			return usageError{"give both --from PATH|DSN and --to PATH|DSN"}
		}
		src, _, err := openStoreAt(e.ctx, *from, true)
		if err != nil {
			return err
		}
		defer src.Close()
		dst, _, err := openStoreAt(e.ctx, *to, false)
		if err != nil {
			return err
		}
		defer dst.Close()
		rep, err := store.Copy(e.ctx, src, dst)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rep)
		}
		fmt.Fprintf(e.stdout, "copied %s → %s in one transaction\n", rep.From, rep.To)
		names := make([]string, 0, len(rep.Tables))
		for n := range rep.Tables {
			names = append(names, n)
		}
		slices.Sort(names)
		t := textable.New("TABLE", "ROWS").AlignRight(1)
		for _, n := range names {
			t.Add(n, rep.Tables[n])
		}
		if err := t.Write(e.stdout); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "verified: the same rows in both, content sha256 %s\n", rep.SHA256)
		return nil
	}
}
