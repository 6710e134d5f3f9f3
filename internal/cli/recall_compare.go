package cli

import (
	"flag"

	"memtrace/engine"
	"memtrace/inspector"
)

// cmdCompare runs `memtrace compare TEXT --at-a T --at-b T`: the same
// query recalled read-only at two times, and what changed between them —
// what is forgotten, what rises, what falls, what is new.
func cmdCompare(fs *flag.FlagSet) runFunc {
	atA := fs.String("at-a", "now", "time `A`: now, +30d, -2h, a date or RFC 3339 (offsets from the database clock)")
	atB := fs.String("at-b", "+90d", "time `B`, as --at-a")
	qf := addQueryFlags(fs)
	asJSON := fs.Bool("json", false, "print the comparison as JSON (see docs/inspector.md)")
	of := addOTelFlags(fs, "both recalls")
	return func(e *env, words []string) error {
		text, err := queryText(words, "compare")
		if err != nil {
			return err
		}
		if err := qf.check(); err != nil {
			return err
		}
		if err := of.check(); err != nil {
			return err
		}
		eng, closeStore, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeStore()
		a, err := inspector.At(eng, *atA)
		if err != nil {
			return usageError{"--at-a: " + engine.ErrorMessage(err)}
		}
		b, err := inspector.At(eng, *atB)
		if err != nil {
			return usageError{"--at-b: " + engine.ErrorMessage(err)}
		}
		c, err := inspector.Compare(e.ctx, eng, qf.query(text), a, b)
		if err != nil {
			return err
		}
		done, err := of.export(e, c.A, c.B)
		if err != nil {
			return err
		}
		defer done()
		out := reportOut(e, *of.file)
		if *asJSON {
			return writeJSONText(out, c)
		}
		c.WriteText(out)
		return nil
	}
}
