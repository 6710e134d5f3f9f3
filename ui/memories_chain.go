package ui

import (
	"fmt"
	"slices"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// The Memories detail's supersession chain: the older facts this memory
// replaced, this memory, and the newer one that replaced it — oldest first,
// each with its dates ("until": valid_to, when the fact stopped holding;
// "recorded": when the link was made; "current since": the newest fact's
// creation).

// chainLimit is the most memories the chain lists on each side of this one.
const chainLimit = 3

// chainMember is one memory of a chain, with its place relative to the
// selected one (-n older, 0 this, +n newer).
type chainMember struct {
	m     engine.Memory
	place int
}

// supersessionChain walks from m to the older memories it supersedes (the
// newest-linked first when one memory replaced several) and to the newer
// ones that superseded it, through the engine's cache (no I/O); nil when m
// is in no chain.
func supersessionChain(eng *engine.Engine, m engine.Memory) []chainMember {
	var older []chainMember
	seen := map[int64]bool{m.ID: true}
	cur := m.ID
	for place := -1; place >= -chainLimit; place-- {
		ids := eng.Supersedes(cur)
		slices.Reverse(ids) // the newest older fact first
		var next int64
		for _, id := range ids {
			if o, ok := eng.Memory(id); ok && !seen[id] {
				seen[id] = true
				older = append(older, chainMember{o, place})
				if next == 0 {
					next = id
				}
			}
		}
		if next == 0 {
			break
		}
		cur = next
	}
	var newer []chainMember
	for cur, place := m, 1; cur.SupersededBy != 0 && place <= chainLimit; place++ {
		nw, ok := eng.Memory(cur.SupersededBy)
		if !ok || seen[nw.ID] {
			break
		}
		seen[nw.ID] = true
		newer = append(newer, chainMember{nw, place})
		cur = nw
	}
	if len(older)+len(newer) == 0 {
		return nil
	}
	slices.Reverse(older)
	out := append(older, chainMember{m, 0})
	return append(out, newer...)
}

// chainView is the chain as lines, oldest first: "←" older, "●" this, "→"
// newer.
func (p memoriesPane) chainView(m *engine.Memory) []string {
	st := p.c.styles
	eng := p.c.deps.Engine
	if eng == nil {
		if m.SupersededBy == 0 {
			return nil
		}
		return []string{st.Detail.Label.Render(safetext.Truncate(fmt.Sprintf("chain  → superseded by #%d: until %s, recorded %s", m.SupersededBy, day(m.ValidTo), day(m.SupersededAt)), p.width))}
	}
	// The cached copy carries the links as the engine sees them.
	cm, ok := eng.Memory(m.ID)
	if !ok {
		cm = *m
	}
	chain := supersessionChain(eng, cm)
	if chain == nil {
		return nil
	}
	var out []string
	for i, c := range chain {
		label := "       "
		if i == 0 {
			label = "chain  "
		}
		var mark, dates string
		switch {
		case c.place < 0:
			mark = "← "
		case c.place == 0:
			mark = "● this "
		default:
			mark = "→ "
		}
		if c.m.SupersededBy != 0 {
			dates = fmt.Sprintf("until %s, recorded %s", day(c.m.ValidTo), day(c.m.SupersededAt))
		} else {
			dates = "current since " + day(c.m.CreatedAt)
		}
		head := fmt.Sprintf("%s#%d %s · %s · ", mark, c.m.ID, c.m.Key, dates)
		text := safetext.SanitizeLine(c.m.Content)
		line := safetext.Truncate(label+head+text, p.width)
		style := st.Detail.Value
		switch {
		case c.place == 0:
			style = st.Filter.Chip
		case c.m.SupersededBy != 0:
			style = st.Table.Muted
		}
		out = append(out, style.Render(line))
	}
	return out
}
