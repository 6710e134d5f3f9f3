package curate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/engine/filter"
)

// CleanupOptions configure a cleanup scan.
type CleanupOptions struct {
	// DryRun reports without writing proposals.
	DryRun bool
}

// CleanupPattern is one row of the cleanup table (seed 000): a named
// pattern, how many active memories are nothing but that noise, their share
// of the memories scanned, and how many match it but carry other
// information (kept).
type CleanupPattern struct {
	Pattern string  `json:"pattern"`
	Layer   string  `json:"layer"`
	Count   int     `json:"count"`
	Share   float64 `json:"share"` // percent of scanned memories
	Kept    int     `json:"kept"`
}

// CleanupItem is one memory the scan flagged.
type CleanupItem struct {
	MemoryID   int64  `json:"memory_id"`
	Key        string `json:"key,omitempty"`
	Pattern    string `json:"pattern"`
	Pure       bool   `json:"pure"`
	ProposalID int64  `json:"proposal_id,omitempty"`
	// AlreadyProposed: an open quarantine proposal exists; none was added.
	AlreadyProposed bool `json:"already_proposed,omitempty"`
}

// CleanupReport is what a cleanup found (`cleanup --json`).
type CleanupReport struct {
	DryRun   bool             `json:"dry_run"`
	Scanned  int              `json:"scanned"`
	Noise    int              `json:"noise"`
	Kept     int              `json:"kept_with_info"`
	Share    float64          `json:"share"` // percent of scanned that is pure noise
	Patterns []CleanupPattern `json:"patterns"`
	Items    []CleanupItem    `json:"items"`
	Proposed int              `json:"proposed"`
	// Curated counts pure-noise matches left alone because a curator wrote
	// the memory (`memtrace add`, an approved promotion): the filters judge
	// chat messages, and a short curated rule is not noise.
	Curated int `json:"curated"`
}

// cleanupEvidence is the verdict JSON of a cleanup quarantine proposal.
type cleanupEvidence struct {
	Pattern string         `json:"pattern"`
	Layer   string         `json:"layer"`
	Matches []filter.Match `json:"matches"`
}

// Cleanup scans every active memory with the L1 and L2 patterns (seed 000's
// cleanup of an already-noisy database). A memory that is nothing but noise
// is counted under the first pattern that drops it and gets a quarantine
// proposal (proposer "rule") — never a deletion, and nothing changes until
// a curator approves. A memory that matches a pattern but carries other
// information is kept and counted as such under the first pattern it
// matched. A memory with an open quarantine proposal is not proposed again.
// A memory a curator wrote (`memtrace add`, an approved promotion) is never
// proposed: a short rule is not chat noise; it is counted as Curated.
func Cleanup(ctx context.Context, e *engine.Engine, o CleanupOptions) (*CleanupReport, error) {
	rep := &CleanupReport{DryRun: o.DryRun, Patterns: []CleanupPattern{}, Items: []CleanupItem{}}
	rows := map[string]*CleanupPattern{}
	noise, err := scanNoise(ctx, e, rep, rows)
	if err != nil {
		return nil, err
	}
	noise, err = dropCurated(ctx, e, noise, rep, rows)
	if err != nil {
		return nil, err
	}
	tallyPatterns(rep, rows)
	if err := proposeQuarantines(ctx, e, noise, o.DryRun, rep); err != nil {
		return nil, err
	}
	for _, n := range noise {
		rep.Items = append(rep.Items, n.item)
	}
	sort.Slice(rep.Items, func(i, j int) bool { return rep.Items[i].MemoryID < rep.Items[j].MemoryID })
	return rep, nil
}

// flagged is an active memory that nothing but noise patterns match.
type flagged struct {
	item    CleanupItem
	matches []filter.Match
	layer   string
}

// scanNoise runs the noise filters over every active memory: a memory that
// is nothing but noise is returned, one that carries information too is
// listed in rep.Items as kept; both count in their pattern's row. The
// length floors are message-level rules: an extracted memory (see
// memoryLevel) is judged by the memory-level ones instead.
func scanNoise(ctx context.Context, e *engine.Engine, rep *CleanupReport, rows map[string]*CleanupPattern) ([]flagged, error) {
	f := filter.New()
	row := func(m filter.Match) *CleanupPattern {
		r, ok := rows[m.Name]
		if !ok {
			r = &CleanupPattern{Pattern: m.Name, Layer: m.Layer}
			rows[m.Name] = r
		}
		return r
	}
	var noise []flagged
	var err error
	e.EachMemory(func(m *engine.Memory) bool {
		if m.Status != engine.StatusActive {
			return true
		}
		rep.Scanned++
		ms := f.Scan(m.Content)
		if len(ms) > 0 && hasLengthFloor(ms) {
			if ms, err = memoryLevel(ctx, e, m, ms); err != nil {
				return false
			}
		}
		if len(ms) == 0 {
			return true
		}
		first, pure := reportedMatch(ms)
		it := CleanupItem{MemoryID: m.ID, Key: m.Key, Pattern: first.Name, Pure: pure}
		if pure {
			row(first).Count++
			rep.Noise++
			noise = append(noise, flagged{item: it, matches: ms, layer: first.Layer})
		} else {
			row(first).Kept++
			rep.Kept++
			rep.Items = append(rep.Items, it)
		}
		return true
	})
	return noise, err
}

// dropCurated leaves alone, and counts apart, the flagged memories a
// curator wrote or changed.
func dropCurated(ctx context.Context, e *engine.Engine, noise []flagged, rep *CleanupReport, rows map[string]*CleanupPattern) ([]flagged, error) {
	kept := noise[:0]
	for _, n := range noise {
		curated, err := curatedMemory(ctx, e, n.item.MemoryID, n.item.Key)
		if err != nil {
			return nil, err
		}
		if curated {
			rep.Curated++
			rep.Noise--
			rows[n.item.Pattern].Count--
			continue
		}
		kept = append(kept, n)
	}
	return kept, nil
}

// tallyPatterns turns the pattern rows into the report's, most matched
// first, with each pattern's share of the memories scanned.
func tallyPatterns(rep *CleanupReport, rows map[string]*CleanupPattern) {
	for _, r := range rows {
		if r.Count == 0 && r.Kept == 0 {
			continue
		}
		if rep.Scanned > 0 {
			r.Share = 100 * float64(r.Count) / float64(rep.Scanned)
		}
		rep.Patterns = append(rep.Patterns, *r)
	}
	if rep.Scanned > 0 {
		rep.Share = 100 * float64(rep.Noise) / float64(rep.Scanned)
	}
	sort.Slice(rep.Patterns, func(i, j int) bool {
		a, b := rep.Patterns[i], rep.Patterns[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Kept != b.Kept {
			return a.Kept > b.Kept
		}
		return a.Pattern < b.Pattern
	})
}

// proposeQuarantines proposes quarantining each flagged memory that has no
// open quarantine proposal yet, in one transaction unless dryRun.
func proposeQuarantines(ctx context.Context, e *engine.Engine, noise []flagged, dryRun bool, rep *CleanupReport) error {
	open, err := e.Store().FindProposals(ctx, engine.ProposalFilter{Kind: engine.ProposalQuarantine})
	if err != nil {
		return fmt.Errorf("cleanup: %w", err)
	}
	blocked := map[int64]bool{}
	for _, p := range open {
		if p.Status == engine.ProposalPending || p.Status == engine.ProposalReview || p.Status == engine.ProposalApproved {
			blocked[p.MemoryID] = true
		}
	}
	var props []*engine.Proposal
	var propItems []int
	for i := range noise {
		n := &noise[i]
		if blocked[n.item.MemoryID] {
			n.item.AlreadyProposed = true
			continue
		}
		raw, err := json.Marshal(cleanupEvidence{Pattern: n.item.Pattern, Layer: n.layer, Matches: n.matches})
		if err != nil {
			return fmt.Errorf("cleanup: %w", err)
		}
		props = append(props, &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: n.item.MemoryID, Proposer: engine.ProposerRule,
			Status: engine.ProposalPending, Confidence: 1, Verdict: raw,
			Reason: fmt.Sprintf("cleanup: nothing but noise (%s pattern %s)", n.layer, n.item.Pattern)})
		propItems = append(propItems, i)
	}
	if !dryRun && len(props) > 0 {
		err := e.Update(ctx, func(q engine.Queries) error {
			for _, p := range props {
				if err := q.InsertProposal(ctx, p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("cleanup: write proposals: %w", err)
		}
		for k, i := range propItems {
			noise[i].item.ProposalID = props[k].ID
		}
		rep.Proposed = len(props)
	}
	return nil
}

// reportedMatch picks the pattern a memory is counted under: the first pure
// match in table order (L1 first), except that a text under the length
// floor is reported as too_short even when it is also an acknowledgement —
// the length check comes first, as in the seed's shouldCapture, so every
// fragment is counted once under the same name. With no pure match it is
// the first pattern that matched at all (the memory is kept).
func reportedMatch(ms []filter.Match) (filter.Match, bool) {
	best := -1
	for i, x := range ms {
		if !x.Pure {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		if ms[best].Name == "acknowledgement" && x.Name == "too_short" {
			best = i
			break
		}
	}
	if best < 0 {
		return ms[0], false
	}
	return ms[best], true
}

// curatedMemory reports whether a curator wrote the memory: a promoted
// lesson, or a memory whose creation is audited under the curator.
func curatedMemory(ctx context.Context, e *engine.Engine, id int64, key string) (bool, error) {
	if strings.HasPrefix(key, "lesson:") {
		return true, nil
	}
	rows, err := e.Store().AuditForMemory(ctx, id)
	if err != nil {
		return false, fmt.Errorf("cleanup: audit of memory %d: %w", id, err)
	}
	return len(rows) > 0 && rows[0].Action == "create" && rows[0].Actor == engine.ActorCurator, nil
}
