package cli

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
	"memtrace/recall"
)

// cmdRecall runs `memtrace recall TEXT`: the recall pipeline, read-only
// unless --commit-access. It prints the prompt the agent would receive,
// the stage table with --trace, or the trace document with --json.
func cmdRecall(fs *flag.FlagSet) runFunc {
	at := fs.String("at", "", "recall at time `T`: now, +30d, -2h, a date or RFC 3339 (offsets from the database clock)")
	qf := addQueryFlags(fs)
	showTrace := fs.Bool("trace", false, "print the stage table, then the prompt")
	asJSON := fs.Bool("json", false, "print the trace document (memtrace help json describes it)")
	commit := fs.Bool("commit-access", false, "record access and association boosts, as a live agent recall does")
	of := addOTelFlags(fs, "the trace")
	return func(e *env, words []string) error {
		text, err := queryText(words, "recall for")
		if err != nil {
			return err
		}
		if *showTrace && *asJSON {
			return usageError{"choose one of --trace and --json"}
		}
		if err := qf.check(); err != nil {
			return err
		}
		if err := of.check(); err != nil {
			return err
		}
		eng, closeStore, err := openOneShot(e)
		if err != nil {
			return err
		}
		defer closeStore()
		when, err := engine.ParseAt(*at, eng.Now())
		if err != nil {
			return usageError{"--at: " + engine.ErrorMessage(err)}
		}
		q := qf.query(text)
		q.At, q.ReadOnly = when, !*commit
		tr, err := recall.Recall(e.ctx, eng, q)
		if err != nil {
			return err
		}
		done, err := of.export(e, tr)
		if err != nil {
			return err
		}
		defer done()
		out := reportOut(e, *of.file)
		switch {
		case *asJSON:
			return writeJSONText(out, tr)
		case *showTrace:
			printTraceTable(out, tr)
		}
		if tr.Prompt == "" {
			fmt.Fprintln(out, emptyRecallNote(tr, *showTrace))
			return nil
		}
		fmt.Fprintln(out, tr.Prompt)
		return nil
	}
}

// emptyRecallNote says why a recall gave no prompt: the memories that
// reached the budget stage did not fit --budget (they were relevant), or
// nothing relevant survived. traced: the stage table is already printed.
func emptyRecallNote(tr *engine.Trace, traced bool) string {
	if st := tr.Stage("budget"); st != nil {
		if n := inspector.DropCounts(*st)[string(engine.DropOverBudget)]; n > 0 && n == st.In {
			return fmt.Sprintf("(no memory recalled: %s survived, but no line of them fits the budget of %d chars; raise --budget)", wording.Memories(n), tr.Budget)
		}
	}
	if traced {
		return "(no memory recalled: nothing relevant survived)"
	}
	return "(no memory recalled: nothing relevant survived; run with --trace to see why)"
}

// queryFlags are the query flags recall and compare share.
type queryFlags struct {
	session, project *string
	k, budget        *int
	includeCold      *bool
	includeSuper     *bool
	fs               *flag.FlagSet
}

func addQueryFlags(fs *flag.FlagSet) queryFlags {
	return queryFlags{
		fs:           fs,
		session:      fs.String("session", "", "the live `SESSION` (its last minutes are echoes; its share is capped)"),
		project:      fs.String("project", "", "the `PROJECT` the query is about (other projects' memories are excluded)"),
		k:            fs.Int("k", 0, "memories to recall (default from config)"),
		budget:       fs.Int("budget", 0, "prompt budget in characters (default from config)"),
		includeCold:  fs.Bool("include-cold", false, "also recall archived (COLD) memories"),
		includeSuper: fs.Bool("include-superseded", false, "also recall superseded memories, labelled former ([until DATE]); a query about the past does by itself"),
	}
}

// check refuses a --k or --budget below 1 (left out, each is the
// config's).
func (f queryFlags) check() error {
	var bad error
	f.fs.Visit(func(fl *flag.Flag) {
		if (fl.Name == "k" && *f.k < 1) || (fl.Name == "budget" && *f.budget < 1) {
			bad = usageError{"--k and --budget must be positive (leave one out for the config's default)"}
		}
	})
	if *f.k < 0 || *f.budget < 0 {
		bad = usageError{"--k and --budget must be positive (leave one out for the config's default)"}
	}
	return bad
}

// query is the query the flags describe, for text.
func (f queryFlags) query(text string) engine.Query {
	return engine.Query{Text: text, Session: *f.session, Project: *f.project, K: *f.k, Budget: *f.budget, IncludeCold: *f.includeCold,
		IncludeSuperseded: *f.includeSuper}
}

// printTraceTable prints one line per stage — items in, out, and the drop
// reasons counted — then the preprocessing and the survivors.
func printTraceTable(w io.Writer, tr *engine.Trace) {
	fmt.Fprintf(w, "query   %s\n", safetext.SanitizeLine(tr.Query))
	if st := tr.Stage("preprocess"); st != nil {
		fmt.Fprintf(w, "terms   %s   (dropped: %s)\n", safetext.SanitizeLine(st.Notes["surface"]),
			safetext.SanitizeLine(orNone(st.Notes["dropped_words"])))
	}
	mode := "read-only"
	if !tr.ReadOnly {
		mode = "committed"
	}
	fmt.Fprintf(w, "at      %s   k %d   budget %d chars   %s\n\n", tr.At.Format("2006-01-02T15:04:05Z07:00"), tr.K, tr.Budget, mode)
	fmt.Fprintf(w, "%-3s %-11s %5s %5s  %s\n", "#", "stage", "in", "out", "dropped (drop_kind × count)")
	for i, st := range tr.Stages {
		fmt.Fprintf(w, "%-3d %-11s %5d %5d  %s\n", i, st.Name, st.In, st.Out, dropSummary(st))
	}
	fmt.Fprintf(w, "\nsurvivors %d (guaranteed %d), prompt %d chars\n", len(tr.Survivors), tr.Guaranteed, tr.PromptChars)
	for _, s := range tr.Survivors {
		fmt.Fprintf(w, "  #%-5d %-10s %s %s\n", s.ID, s.Channel, safetext.PadRight(safetext.SanitizeLine(s.Type), 12),
			safetext.Truncate(safetext.SanitizeLine(s.Text), 64))
	}
	fmt.Fprintln(w)
}

// dropSummary counts a stage's drops by drop kind ("forgotten × 3,
// below_floor × 12"; the kinds are listed by `memtrace help json`).
func dropSummary(st engine.StageTrace) string {
	counts := inspector.DropCounts(st)
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s × %d", k, counts[k])
	}
	// Kept, not dropped: memories forgotten in free recall that the query
	// recognises (see `memtrace help decay`).
	recognised := 0
	for _, it := range st.Items {
		if it.Recognised {
			recognised++
		}
	}
	if recognised > 0 {
		parts = append(parts, fmt.Sprintf("(kept: recognised × %d)", recognised))
	}
	return strings.Join(parts, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
