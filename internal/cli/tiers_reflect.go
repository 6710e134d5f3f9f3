package cli

import (
	"flag"
	"fmt"

	"memtrace/capture"
	"memtrace/engine"
)

// cmdReflect files a self-reflection record.
func cmdReflect(fs *flag.FlagSet) runFunc {
	var r capture.Reflection
	fs.StringVar(&r.Intended, "intended", "", requiredMark+"what the agent meant to achieve, as `TEXT`")
	fs.StringVar(&r.Actual, "actual", "", requiredMark+"what actually happened, as `TEXT`")
	fs.StringVar(&r.Lesson, "lesson", "", "what to do differently, as `TEXT` (default: the actual outcome)")
	fs.StringVar(&r.Session, "session", "", "`SESSION` id")
	fs.StringVar(&r.Project, "project", "", "`PROJECT` the lesson belongs to")
	asJSON := fs.Bool("json", false, "print the lesson as JSON")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		if r.Intended == "" || r.Actual == "" {
			return usageError{"both --intended and --actual are required"}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		c, err := capture.Reflect(e.ctx, eng, r)
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
}
