package ui

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"memtrace/engine"
)

// memStore is an in-memory engine.Store holding what the UI reads and
// writes: memories with audit rows and batch rollback, and captures. It
// stands in for package store until that lands in main; every method the UI
// calls behaves as the Store contract says (filters, Limit/Offset, total,
// audit before/after, rollback restores the before image).
type memStore struct {
	engine.Store // methods the UI never calls; calling one panics

	mu       sync.Mutex
	memories []*engine.Memory
	audit    []*engine.AuditEntry
	captures []*engine.CaptureRecord
	now      func() time.Time

	// lastFilter and fetched record what the UI asked for, to check it
	// pages instead of loading everything.
	lastFilter engine.MemoryFilter
	fetched    []int
}

func (s *memStore) FindMemories(ctx context.Context, f engine.MemoryFilter) ([]*engine.Memory, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastFilter = f
	var match []*engine.Memory
	for _, m := range s.memories {
		if (f.Status == nil || m.Status == *f.Status) && (f.Type == nil || m.Type == *f.Type) &&
			(f.Kind == nil || m.Kind == *f.Kind) && (f.Tier == nil || m.Tier == *f.Tier) &&
			(f.Text == "" || strings.Contains(strings.ToLower(m.Content), strings.ToLower(f.Text))) {
			match = append(match, m)
		}
	}
	total := len(match)
	match = match[min(f.Offset, total):]
	if f.Limit > 0 && len(match) > f.Limit {
		match = match[:f.Limit]
	}
	s.fetched = append(s.fetched, len(match))
	out := make([]*engine.Memory, len(match))
	for i, m := range match {
		c := *m
		out[i] = &c
	}
	return out, total, nil
}

func (s *memStore) get(id int64) *engine.Memory {
	for _, m := range s.memories {
		if m.ID == id {
			return m
		}
	}
	return nil
}

func (s *memStore) GetMemory(ctx context.Context, id int64) (*engine.Memory, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.get(id)
	if m == nil {
		return nil, engine.Errorf(engine.ENOTFOUND, "Memory %d not found.", id)
	}
	c := *m
	return &c, nil
}

func (s *memStore) UpdateMemory(ctx context.Context, m *engine.Memory, a engine.Actor, action string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.get(m.ID)
	if old == nil {
		return engine.Errorf(engine.ENOTFOUND, "Memory %d not found.", m.ID)
	}
	before, after := *old, *m
	*old = *m
	s.audit = append(s.audit, &engine.AuditEntry{ID: int64(len(s.audit) + 1), Batch: a.Batch, Actor: a.Name, Action: action,
		MemoryID: m.ID, Before: &before, After: &after, At: s.now()})
	return nil
}

func (s *memStore) Update(ctx context.Context, fn func(q engine.Queries) error) error {
	return fn(s)
}

func (s *memStore) AuditForMemory(ctx context.Context, id int64) ([]*engine.AuditEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*engine.AuditEntry
	for _, a := range s.audit {
		if a.MemoryID == id {
			out = append(out, a)
		}
	}
	return out, nil
}

func (s *memStore) RollbackBatch(ctx context.Context, batch, actor string) (int, error) {
	s.mu.Lock()
	var rows []*engine.AuditEntry
	for _, a := range s.audit {
		if a.Batch == batch {
			rows = append(rows, a)
		}
	}
	s.mu.Unlock()
	if len(rows) == 0 {
		return 0, engine.Errorf(engine.ENOTFOUND, "Batch %s not found.", batch)
	}
	for i := len(rows) - 1; i >= 0; i-- {
		b := *rows[i].Before
		if err := s.UpdateMemory(ctx, &b, engine.Actor{Name: actor, Batch: "rollback:" + batch}, "rollback"); err != nil {
			return 0, err
		}
	}
	return len(rows), nil
}

func (s *memStore) FindCaptures(ctx context.Context, f engine.CaptureFilter) ([]*engine.CaptureRecord, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var match []*engine.CaptureRecord
	for _, c := range s.captures {
		if (f.Outcome == "" || c.Outcome == f.Outcome) && (f.DroppedBy == "" || c.DroppedBy == f.DroppedBy) &&
			(f.Reason == "" || c.Reason == f.Reason) && (f.Text == "" || strings.Contains(c.Text, f.Text)) {
			match = append(match, c)
		}
	}
	total := len(match)
	match = match[min(f.Offset, total):]
	if f.Limit > 0 && len(match) > f.Limit {
		match = match[:f.Limit]
	}
	return match, total, nil
}

func (s *memStore) CaptureReasonCounts(ctx context.Context) ([]engine.ReasonCount, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := map[[2]string]int{}
	for _, c := range s.captures {
		if c.Outcome == engine.OutcomeDropped {
			n[[2]string{c.DroppedBy, c.Reason}]++
		}
	}
	var out []engine.ReasonCount
	for k, v := range n {
		out = append(out, engine.ReasonCount{Layer: k[0], Reason: k[1], Count: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Reason < out[j].Reason
	})
	return out, nil
}
