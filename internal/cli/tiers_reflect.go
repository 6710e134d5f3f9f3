package cli

import (
	"flag"
	"fmt"
	"io"

	"memtrace/engine"
)

// cmdReflect files a self-reflection record.
func cmdReflect(e *env, args []string) error {
	fs := flag.NewFlagSet("reflect", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var r engine.Reflection
	fs.StringVar(&r.Intended, "intended", "", "what the agent meant to achieve")
	fs.StringVar(&r.Actual, "actual", "", "what actually happened")
	fs.StringVar(&r.Lesson, "lesson", "", "what to do differently (default: the actual outcome)")
	fs.StringVar(&r.Session, "session", "", "session id")
	fs.StringVar(&r.Project, "project", "", "project the lesson belongs to")
	asJSON := fs.Bool("json", false, "print the lesson as JSON")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usageError{"unexpected argument " + fs.Arg(0)}
	}
	if r.Intended == "" || r.Actual == "" {
		return usageError{"both --intended and --actual are required"}
	}
	eng, closeDB, err := openTiersEngine(e)
	if err != nil {
		return err
	}
	defer closeDB()
	c, err := eng.Reflect(e.ctx, r)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, c)
	}
	fmt.Fprintf(e.stdout, "reflection recorded under lesson %s: count %d/%d, status %s\n", c.LessonKey, c.Count, engine.PromotionThreshold, c.Status)
	if c.Status == engine.CorrectionCandidate {
		fmt.Fprintln(e.stdout, "the pattern repeated; `memtrace heartbeat` will propose it for promotion")
	}
	return nil
}
