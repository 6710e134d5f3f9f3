package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
)

// showOutput is the `memtrace show --json` output.
type showOutput struct {
	Memory memoryOut            `json:"memory"`
	Audit  []*engine.AuditEntry `json:"audit"`
	// Source is where an imported memory came from (`import memories`);
	// absent for a captured one.
	Source *engine.MemorySource `json:"source,omitempty"`
	// Tombstones: the erasure of an erased memory (who, when, why, a
	// salted hash of the text); absent for every other memory.
	Tombstones []engine.Tombstone `json:"tombstones,omitempty"`
}

// cmdShow runs `memtrace show ID|key:K`: one memory with its audit history.
func cmdShow(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print JSON")
	return func(e *env, words []string) error {
		if len(words) != 1 {
			return usageError{"want one memory: ID or key:K"}
		}
		db, _, err := openStore(e, true) // one memory: no engine
		if err != nil {
			return err
		}
		defer db.Close()
		var m *engine.Memory
		if k, ok := strings.CutPrefix(words[0], "key:"); ok {
			m, err = db.GetMemoryByKey(e.ctx, k)
		} else {
			id, perr := strconv.ParseInt(words[0], 10, 64)
			if perr != nil {
				return usageError{fmt.Sprintf("%q is neither a memory id nor key:K", words[0])}
			}
			m, err = db.GetMemory(e.ctx, id)
		}
		if err != nil {
			if engine.ErrorCode(err) == engine.ENOTFOUND {
				return engine.Errorf(engine.ENOTFOUND, "no memory %s; find one with `memtrace list --text WORD`", words[0])
			}
			return err
		}
		audit, err := db.AuditForMemory(e.ctx, m.ID)
		if err != nil {
			return err
		}
		src, err := db.GetMemorySource(e.ctx, m.ID)
		if engine.ErrorCode(err) == engine.ENOTFOUND {
			src, err = nil, nil
		}
		if err != nil {
			return err
		}
		tombs, err := curate.Tombstones(e.ctx, db, m.ID)
		if err != nil {
			return err
		}
		older, err := supersededBy(e.ctx, db, []int64{m.ID})
		if err != nil {
			return err
		}
		if *asJSON {
			if audit == nil {
				audit = []*engine.AuditEntry{}
			}
			return writeJSON(e.stdout, showOutput{Memory: memoryOut{Memory: m, Supersedes: older[m.ID]}, Audit: audit, Source: src, Tombstones: tombs})
		}
		w := e.stdout
		fmt.Fprintf(w, "memory %d  key %s\n", m.ID, safetext.SanitizeLine(m.Key))
		fmt.Fprintf(w, "  %s\n", safetext.SanitizeLine(m.Content))
		fmt.Fprintf(w, "kind %s  type %s", m.Kind, safetext.SanitizeLine(m.Type))
		if m.OrigType != "" {
			fmt.Fprintf(w, " (was %s)", safetext.SanitizeLine(m.OrigType))
		}
		fmt.Fprintf(w, "  status %s  tier %s  scope %s  importance %.2f\n", m.Status, m.Tier, m.Scope, m.Importance)
		fmt.Fprintf(w, "role %s  session %s  created %s  last accessed %s  accessed %d×  boost %.2f\n",
			safetext.SanitizeLine(m.Role), safetext.SanitizeLine(m.Session), m.CreatedAt.Format(time.RFC3339), m.LastAccessedAt.Format(time.RFC3339), m.AccessCount, m.Boost)
		if err := writeChain(e.ctx, w, db, m, older[m.ID]); err != nil {
			return err
		}
		if src != nil {
			fmt.Fprintf(w, "imported from %s id %s (%s) at %s; metadata %s\n", src.Source, safetext.SanitizeLine(src.SourceID),
				safetext.SanitizeLine(src.Position), src.ImportedAt.Format(time.RFC3339), safetext.SanitizeLine(string(src.Metadata)))
		}
		for _, t := range tombs {
			fmt.Fprintf(w, "erased %s by %s in batch %s: %s (salted sha256 %s, salt %s)\n", t.At.Format(time.RFC3339),
				safetext.SanitizeLine(t.Actor), t.Batch, safetext.SanitizeLine(t.Reason), t.TextHash, t.Salt)
		}
		fmt.Fprintf(w, "audit (%d):\n", len(audit))
		for _, a := range audit {
			batch := a.Batch
			if batch == "" {
				batch = "-"
			}
			fmt.Fprintf(w, "  %s  %-10s %-10s batch %s%s\n", a.At.Format(time.RFC3339), a.Actor, a.Action, batch, auditChange(a))
		}
		return nil
	}
}

// writeChain prints the supersession chain of m: what it replaced (the
// memories older names) and what replaced it, with dates.
func writeChain(ctx context.Context, w io.Writer, q engine.MemoryQueries, m *engine.Memory, older []int64) error {
	chain := older
	if m.SupersededBy != 0 {
		chain = append(slices.Clone(older), m.SupersededBy)
	}
	byID, err := memoriesByID(ctx, q, chain)
	if err != nil {
		return err
	}
	for _, id := range older {
		if o := byID[id]; o != nil {
			fmt.Fprintf(w, "supersedes #%d (held until %s): %s\n", o.ID, o.ValidTo.Format("2006-01-02"), safetext.SanitizeLine(o.Content))
		}
	}
	if m.SupersededBy != 0 {
		line := fmt.Sprintf("superseded by #%d on %s (recorded %s)", m.SupersededBy, m.ValidTo.Format("2006-01-02"), m.SupersededAt.Format("2006-01-02"))
		if n := byID[m.SupersededBy]; n != nil {
			line += ": " + safetext.SanitizeLine(n.Content)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

// memoriesByID reads the memories with these ids in one query; an id
// the store does not hold is absent from the map.
func memoriesByID(ctx context.Context, q engine.MemoryQueries, ids []int64) (map[int64]*engine.Memory, error) {
	byID := make(map[int64]*engine.Memory, len(ids))
	if len(ids) == 0 {
		return byID, nil
	}
	ms, _, err := q.FindMemories(ctx, engine.MemoryFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		byID[m.ID] = m
	}
	return byID, nil
}

// auditChange summarises what an audit row changed.
func auditChange(a *engine.AuditEntry) string {
	if a.Before == nil || a.After == nil {
		return ""
	}
	var parts []string
	b, c := a.Before, a.After
	if b.Status != c.Status {
		parts = append(parts, fmt.Sprintf("status %s→%s", b.Status, c.Status))
	}
	if b.Type != c.Type {
		parts = append(parts, fmt.Sprintf("type %s→%s", b.Type, c.Type))
	}
	if b.Tier != c.Tier {
		parts = append(parts, fmt.Sprintf("tier %s→%s", b.Tier, c.Tier))
	}
	if b.Importance != c.Importance {
		parts = append(parts, fmt.Sprintf("importance %.2f→%.2f", b.Importance, c.Importance))
	}
	if b.AccessCount != c.AccessCount {
		parts = append(parts, fmt.Sprintf("accessed %d→%d", b.AccessCount, c.AccessCount))
	}
	if b.Content != c.Content {
		parts = append(parts, "content changed")
	}
	if b.SupersededBy != c.SupersededBy {
		if c.SupersededBy != 0 {
			parts = append(parts, fmt.Sprintf("superseded by #%d (valid to %s)", c.SupersededBy, c.ValidTo.Format("2006-01-02")))
		} else {
			parts = append(parts, fmt.Sprintf("link to #%d removed: current again", b.SupersededBy))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  " + strings.Join(parts, ", ")
}
