package recall

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"memtrace/engine"
)

// assocNeighbours is how many nearest memories of a survivor are examined
// for association; those at or above AssocThreshold are boosted.
const assocNeighbours = 32

// Associations returns the active neighbours of memory id whose cosine
// similarity (e.Similarity) is at least cfg.AssocThreshold, in id order,
// excluding id itself.
func Associations(e *engine.Engine, id int64) []int64 {
	v, ok := e.VectorOf(id)
	if !ok {
		return nil
	}
	var out []int64
	for _, h := range e.VectorSearch(v, assocNeighbours+1) {
		if h.ID == id {
			continue
		}
		m, ok := e.Memory(h.ID)
		if !ok || m.Status != engine.StatusActive {
			continue
		}
		if e.Similarity(id, h.ID) >= e.Config().AssocThreshold {
			out = append(out, h.ID)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// commitRecall is the write half of a live (not read-only) recall, in one
// transaction: every survivor's access is recorded at q.At, and every
// neighbour of a survivor (Associations) gets boost(q.At) + AssocBoost,
// stamped at q.At — once per recall, however many survivors it neighbours.
// Survivors recalled together strengthen each other when they are similar
// enough, as memories recalled together do. The budget stage's notes say what was written.
func commitRecall(ctx context.Context, e *engine.Engine, q engine.Query, survivors []*candidate, tr *engine.Trace) error {
	if len(survivors) == 0 {
		return nil
	}
	seen := make(map[int64]bool)
	var boosted []int64
	for _, c := range survivors {
		for _, n := range Associations(e, c.m.ID) {
			if !seen[n] {
				seen[n] = true
				boosted = append(boosted, n)
			}
		}
	}
	sort.Slice(boosted, func(i, j int) bool { return boosted[i] < boosted[j] })
	err := e.Update(ctx, func(tx engine.Queries) error {
		for _, c := range survivors {
			if err := tx.RecordAccess(ctx, c.m.ID, q.At); err != nil {
				return fmt.Errorf("record access of memory %d: %w", c.m.ID, err)
			}
		}
		for _, id := range boosted {
			m, err := tx.GetMemory(ctx, id)
			if err != nil {
				return fmt.Errorf("read neighbour %d: %w", id, err)
			}
			if err := tx.SetBoost(ctx, id, engine.BoostAt(*m, q.At, e.Config())+e.Config().AssocBoost, q.At); err != nil {
				return fmt.Errorf("boost memory %d: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit recall: %w", err)
	}
	if st := tr.Stage("budget"); st != nil {
		ids := make([]string, len(boosted))
		for i, id := range boosted {
			ids[i] = strconv.FormatInt(id, 10)
		}
		st.Notes["committed_access"] = strconv.Itoa(len(survivors))
		st.Notes["committed_boosts"] = strings.Join(ids, ",")
	}
	return nil
}
