package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"memtrace/engine"
	"memtrace/internal/textable"
)

// listOutput is the `memtrace list --json` contract: one page of the
// memories that match, how many match in all, and whether memories beyond
// this page were left out (truncated: page on with --offset, or --limit 0
// for all).
type listOutput struct {
	Memories  []memoryOut `json:"memories"`
	Total     int         `json:"total"`
	Offset    int         `json:"offset"`
	Limit     int         `json:"limit"`
	Truncated bool        `json:"truncated"`
}

// cmdList runs `memtrace list`: memories by status, type, kind, tier, scope
// and text.
func cmdList(fs *flag.FlagSet) runFunc {
	status := fs.String("status", "", "`STATUS`: active, quarantined, archived, or superseded (linked to a newer memory, whatever its stored status) (default any)")
	typ := fs.String("type", "", "`TYPE` label, e.g. milestone")
	kind := fs.String("kind", "", "`KIND`: fact or episode")
	tier := fs.String("tier", "", "`TIER`: hot, warm or cold")
	scope := fs.String("scope", "", "`SCOPE`: global, project:NAME or domain:NAME")
	text := fs.String("text", "", "case-insensitive substring `TEXT` of the content")
	limit := fs.Int("limit", 50, "show at most `N` memories (0: all)")
	offset := fs.Int("offset", 0, "skip the first `N` memories (the next page)")
	asJSON := fs.Bool("json", false, "print JSON")
	return func(e *env, words []string) error {
		if len(words) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q; filter text goes in --text", words[0])}
		}
		if *limit < 0 || *offset < 0 {
			return usageError{"--limit and --offset must be 0 or more"}
		}
		f := engine.MemoryFilter{Text: *text, Limit: *limit, Offset: *offset}
		switch s := engine.Status(*status); {
		case *status == "":
		case *status == "superseded":
			// Not a stored status: a former fact, as the TUI's
			// status:superseded filter and STATUS column name it.
			f.Superseded = true
		case s != engine.StatusActive && s != engine.StatusQuarantined && s != engine.StatusArchived:
			return usageError{fmt.Sprintf("--status %q: want active, quarantined, archived or superseded", *status)}
		default:
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
		// A page of the store: no engine (its caches and indexes are
		// built from every memory, which a page does not need).
		db, _, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		ms, total, err := db.FindMemories(e.ctx, f)
		if err != nil {
			return err
		}
		if *asJSON {
			out, err := memoriesOut(e.ctx, db, ms)
			if err != nil {
				return err
			}
			return writeJSON(e.stdout, listOutput{Memories: out, Total: total, Offset: *offset, Limit: *limit,
				Truncated: *offset+len(ms) < total})
		}
		if len(ms) == 0 && total > 0 {
			fmt.Fprintf(e.stdout, "no memories at --offset %d: %d match; lower --offset\n", *offset, total)
			return nil
		}
		if len(ms) == 0 {
			if *typ != "" && !slices.Contains(engine.Types(), *typ) {
				// A label no judge assigns: only an import could have
				// brought it, and none did — most likely a typo.
				fmt.Fprintf(e.stdout, "no memories match; no memory has the type %q, which is none of the labels capture assigns (%s)\n", *typ, strings.Join(engine.Types(), ", "))
				return nil
			}
			fmt.Fprintln(e.stdout, "no memories match; try fewer filters, or `memtrace ingest FILE.jsonl` to add some")
			return nil
		}
		tbl := textable.New("ID", "KEY", "STATUS", "TIER", "KIND", "TYPE", "IMP", "CONTENT").
			AlignRight(0, 6).Cap(1, 16).Cap(5, 15).Cap(7, 80)
		for _, m := range ms {
			tbl.Add(m.ID, m.Key, listStatus(m), m.Tier, m.Kind, m.Type, fmt.Sprintf("%.2f", m.Importance), m.Content)
		}
		if err := tbl.Write(e.stdout); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, pageLine(*offset, len(ms), total))
		return nil
	}
}

// memoryOut is a memory as list and show print it: every field of
// engine.Memory (superseded_by and valid_to among them, when set) and
// supersedes, the older memories it replaced.
type memoryOut struct {
	*engine.Memory
	Supersedes []int64 `json:"supersedes,omitempty"`
}

// memoriesOut pairs each memory with the ids of those it supersedes, read
// from the store in one query.
func memoriesOut(ctx context.Context, q engine.MemoryQueries, ms []*engine.Memory) ([]memoryOut, error) {
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	older, err := supersededBy(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := make([]memoryOut, len(ms))
	for i, m := range ms {
		out[i] = memoryOut{Memory: m, Supersedes: older[m.ID]}
	}
	return out, nil
}

// supersededBy maps each of ids that supersedes older memories to their
// ids, in id order — what Engine.Supersedes answers, from the store alone.
func supersededBy(ctx context.Context, q engine.MemoryQueries, ids []int64) (map[int64][]int64, error) {
	older := map[int64][]int64{}
	if len(ids) == 0 {
		return older, nil
	}
	ms, _, err := q.FindMemories(ctx, engine.MemoryFilter{SupersededBy: ids})
	if err != nil {
		return nil, err
	}
	for _, o := range ms {
		older[o.SupersededBy] = append(older[o.SupersededBy], o.ID)
	}
	return older, nil
}

// pageLine says which memories a page of list shows and how to see the
// rest: "50 of 142 shown (1–50); --offset 50 for the next page, --limit 0
// for all".
func pageLine(offset, shown, total int) string {
	if offset == 0 && shown == total {
		return fmt.Sprintf("%d of %d shown", shown, total)
	}
	line := fmt.Sprintf("%d of %d shown (%d–%d)", shown, total, offset+1, offset+shown)
	if next := offset + shown; next < total {
		return line + fmt.Sprintf("; --offset %d for the next page, --limit 0 for all", next)
	}
	return line + "; --offset 0 --limit 0 for all"
}

// listStatus is the STATUS cell of the list, as the TUI's Memories tab
// shows it: superseded for an active memory a newer one superseded (a
// former fact, recalled no more), else the stored status. The JSON keeps
// the stored status and superseded_by.
func listStatus(m *engine.Memory) string {
	if m.SupersededBy != 0 && m.Status == engine.StatusActive {
		return "superseded"
	}
	return string(m.Status)
}
