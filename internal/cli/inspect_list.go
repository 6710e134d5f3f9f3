package cli

import (
	"flag"
	"fmt"
	"io"

	"memtrace/engine"
)

// listOutput is the `memtrace list --json` contract.
type listOutput struct {
	Memories []*engine.Memory `json:"memories"`
	Total    int              `json:"total"`
}

// cmdList runs `memtrace list`: memories by status, type, kind, tier, scope
// and text.
func cmdList(e *env, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	status := fs.String("status", "", "active, quarantined or archived (default any)")
	typ := fs.String("type", "", "label, e.g. milestone")
	kind := fs.String("kind", "", "fact or episode")
	tier := fs.String("tier", "", "hot, warm or cold")
	scope := fs.String("scope", "", "global, project:NAME or domain:NAME")
	text := fs.String("text", "", "case-insensitive substring of the content")
	limit := fs.Int("limit", 50, "at most this many (0: all)")
	asJSON := fs.Bool("json", false, "print JSON")
	words, err := parseArgs(fs, args)
	if err != nil {
		return usageError{err.Error()}
	}
	if len(words) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q; filter text goes in --text", words[0])}
	}
	f := engine.MemoryFilter{Text: *text, Limit: *limit}
	if *status != "" {
		s := engine.Status(*status)
		if s != engine.StatusActive && s != engine.StatusQuarantined && s != engine.StatusArchived {
			return usageError{fmt.Sprintf("--status %q: want active, quarantined or archived", *status)}
		}
		f.Status = &s
	}
	if *typ != "" {
		f.Type = typ
	}
	if *kind != "" {
		k := engine.Kind(*kind)
		if k != engine.KindFact && k != engine.KindEpisode {
			return usageError{fmt.Sprintf("--kind %q: want fact or episode", *kind)}
		}
		f.Kind = &k
	}
	if *tier != "" {
		t := engine.Tier(*tier)
		if t != engine.TierHot && t != engine.TierWarm && t != engine.TierCold {
			return usageError{fmt.Sprintf("--tier %q: want hot, warm or cold", *tier)}
		}
		f.Tier = &t
	}
	if *scope != "" {
		f.Scope = scope
	}
	eng, closeDB, err := openCaptureEngine(e, true)
	if err != nil {
		return err
	}
	defer closeDB()
	ms, total, err := eng.Store().FindMemories(e.ctx, f)
	if err != nil {
		return err
	}
	if *asJSON {
		if ms == nil {
			ms = []*engine.Memory{}
		}
		return writeJSON(e.stdout, listOutput{Memories: ms, Total: total})
	}
	if len(ms) == 0 {
		fmt.Fprintln(e.stdout, "no memories match; try fewer filters, or `memtrace ingest FILE.jsonl` to add some")
		return nil
	}
	tbl := newTextTable("ID", "KEY", "STATUS", "TIER", "KIND", "TYPE", "IMP", "CONTENT").
		alignRight(0, 6).cap(1, 16).cap(5, 15).cap(7, 80)
	for _, m := range ms {
		tbl.add(m.ID, m.Key, m.Status, m.Tier, m.Kind, m.Type, fmt.Sprintf("%.2f", m.Importance), m.Content)
	}
	if err := tbl.write(e.stdout); err != nil {
		return err
	}
	if total > len(ms) {
		fmt.Fprintf(e.stdout, "%d of %d shown; --limit 0 shows all\n", len(ms), total)
	}
	return nil
}
