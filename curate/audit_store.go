package curate

import (
	"context"
	"fmt"
	"sort"

	"memtrace/capture"
	"memtrace/engine"
)

// StoreAudit is seed 000's first look at a memory store that already exists
// (`memtrace audit`): how much of it is noise, by pattern; what types it
// holds; how many memories carry an extraction label prefix; how many repeat
// another; and how many today's capture pipeline would not have stored.
// Nothing is written.
type StoreAudit struct {
	Memories int                   `json:"memories"` // every memory, any status
	ByStatus map[engine.Status]int `json:"by_status"`
	// Scanned is the active memories, which every figure below is about.
	Scanned       int                `json:"scanned"`
	Noise         AuditNoise         `json:"noise"`
	Types         []AuditCount       `json:"types"`
	LabelPrefixes []AuditCount       `json:"label_prefixes"`
	Labelled      int                `json:"labelled"` // memories with a label prefix
	Duplicates    AuditDuplicates    `json:"duplicates"`
	WouldNotStore AuditWouldNotStore `json:"would_not_store"`
	// Secrets is about every memory not erased, whatever its status.
	Secrets AuditSecrets `json:"secrets"`
}

// AuditNoise is the cleanup table: per noise pattern, count and share.
type AuditNoise struct {
	Count    int              `json:"count"`
	Share    float64          `json:"share"` // percent of scanned
	Patterns []CleanupPattern `json:"patterns"`
}

// AuditCount is one row of a census.
type AuditCount struct {
	Name  string  `json:"name"`
	Count int     `json:"count"`
	Share float64 `json:"share"` // percent of scanned
}

// AuditDuplicates counts memories that repeat an earlier one: Exact with
// the same content, Near with a vector at least the dedupe similarity
// close (and not exact). Examples pairs a few of them with what they repeat.
type AuditDuplicates struct {
	Exact    int              `json:"exact"`
	Near     int              `json:"near"`
	Examples []AuditDuplicate `json:"examples"`
	// Threshold is the cosine Near counts from: the dedupe similarity
	// calibrated on the embedder (docs/embedders.md), or the configured
	// one when the embedder cannot be asked now (Calibrated false).
	Threshold  float64 `json:"threshold"`
	Calibrated bool    `json:"calibrated"`
	// VectorOff: the embedder scores different facts as one, so only the
	// same content counts (Near is 0).
	VectorOff bool `json:"vector_off,omitempty"`
}

// AuditDuplicate is one memory and the earlier memory it repeats.
type AuditDuplicate struct {
	MemoryID int64   `json:"memory_id"`
	Of       int64   `json:"of"`
	Exact    bool    `json:"exact"`
	Score    float64 `json:"similarity_score"`
}

// AuditWouldNotStore counts the memories the capture pipeline of today (L1
// rules, L2 patterns, the rule judge; read-only) would have dropped at the
// door, by layer and reason.
type AuditWouldNotStore struct {
	Count    int                  `json:"count"`
	Share    float64              `json:"share"` // percent of scanned
	ByReason []engine.ReasonCount `json:"by_reason"`
	// Unavailable says why the section could not be computed (the
	// embedder the capture gate needs is away); the counts are then 0.
	Unavailable string `json:"unavailable,omitempty"`
}

const auditExamples = 10

// AuditStore audits the active memories. It writes nothing.
func AuditStore(ctx context.Context, e *engine.Engine) (*StoreAudit, error) {
	rep := &StoreAudit{ByStatus: map[engine.Status]int{}, Types: []AuditCount{}, LabelPrefixes: []AuditCount{},
		Duplicates: AuditDuplicates{Examples: []AuditDuplicate{}}, WouldNotStore: AuditWouldNotStore{ByReason: []engine.ReasonCount{}}}
	var active []engine.Memory
	e.EachMemory(func(m *engine.Memory) bool {
		rep.Memories++
		rep.ByStatus[m.Status]++
		if m.Status == engine.StatusActive {
			c := *m
			c.Embedding = nil
			active = append(active, c)
		}
		return true
	})
	rep.Scanned = len(active)
	rep.Secrets = auditSecrets(e)
	share := func(n int) float64 {
		if rep.Scanned == 0 {
			return 0
		}
		return 100 * float64(n) / float64(rep.Scanned)
	}

	cl, err := Cleanup(ctx, e, CleanupOptions{DryRun: true})
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	rep.Noise = AuditNoise{Count: cl.Noise, Share: cl.Share, Patterns: cl.Patterns}

	types, labels := map[string]int{}, map[string]int{}
	for i := range active {
		m := &active[i]
		types[m.Type]++
		if written, _, ok := capture.LabelPrefix(m.Content); ok {
			labels[written]++
			rep.Labelled++
		}
	}
	rep.Types = census(types, share)
	rep.LabelPrefixes = census(labels, share)

	// Duplicates, in id order: a memory repeats the first one with its
	// content, or the nearest earlier one within the dedupe similarity
	// calibrated on the embedder, as the capture's (the configured one when
	// the embedder cannot be asked now).
	byHash := map[string]int64{}
	thr := e.Config().DedupeSimilarity
	if d, err := capture.CalibrateDedupe(ctx, e.Embedder(), thr); err == nil {
		thr = d.Threshold
		rep.Duplicates.Calibrated, rep.Duplicates.VectorOff = true, d.VectorOff
	}
	rep.Duplicates.Threshold = thr
	near := capture.NewNearDuplicates(thr, e.VectorOf)
	for i := range active {
		m := &active[i]
		vec, ok := e.VectorOf(m.ID)
		if first, dup := byHash[m.Hash]; dup && m.Hash != "" {
			rep.Duplicates.Exact++
			if len(rep.Duplicates.Examples) < auditExamples {
				rep.Duplicates.Examples = append(rep.Duplicates.Examples, AuditDuplicate{MemoryID: m.ID, Of: first, Exact: true, Score: 1})
			}
			continue
		}
		byHash[m.Hash] = m.ID
		if !ok {
			continue
		}
		if of, sim := near.Offer(m.ID, vec); of != 0 {
			rep.Duplicates.Near++
			if len(rep.Duplicates.Examples) < auditExamples {
				rep.Duplicates.Examples = append(rep.Duplicates.Examples, AuditDuplicate{MemoryID: m.ID, Of: of, Score: sim})
			}
		}
	}

	// What the capture pipeline would do with each, with the rules as the
	// judge (offline and deterministic): a memory without a role is taken
	// as a user's statement, the most lenient reading.
	c, err := capture.NewRuleCapturer(ctx, e)
	if err != nil && engine.ErrorCode(err) == engine.EUNAVAIL && ctx.Err() == nil {
		// The rest of the audit needs no embedder: it is reported, and this
		// section says why it is missing.
		rep.WouldNotStore.Unavailable = engine.ErrorMessage(err)
		active = nil
	} else if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	reasons := map[[2]string]int{}
	for i := range active {
		m := &active[i]
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		role := m.Role
		if role == "" {
			role = "user"
		}
		res, store, err := c.Decide(ctx, engine.Message{ID: m.Key, Role: role, Session: m.Session, Text: m.Content, At: m.CreatedAt})
		if err != nil {
			return nil, fmt.Errorf("audit: memory %d: %w", m.ID, err)
		}
		if !store {
			rep.WouldNotStore.Count++
			reasons[[2]string{res.DroppedBy, res.Reason}]++
		}
	}
	for k, n := range reasons {
		rep.WouldNotStore.ByReason = append(rep.WouldNotStore.ByReason, engine.ReasonCount{Layer: k[0], Reason: k[1], Count: n})
	}
	sort.Slice(rep.WouldNotStore.ByReason, func(i, j int) bool {
		a, b := rep.WouldNotStore.ByReason[i], rep.WouldNotStore.ByReason[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Layer != b.Layer {
			return a.Layer < b.Layer
		}
		return a.Reason < b.Reason
	})
	rep.WouldNotStore.Share = share(rep.WouldNotStore.Count)
	return rep, nil
}

// census turns counts into rows, most first, then by name.
func census(counts map[string]int, share func(int) float64) []AuditCount {
	out := make([]AuditCount, 0, len(counts))
	for name, n := range counts {
		out = append(out, AuditCount{Name: name, Count: n, Share: share(n)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Name < out[j].Name
	})
	return out
}
