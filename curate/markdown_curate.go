package curate

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"memtrace/engine"
)

// Proposal kinds a Markdown import writes for the curator (seed 002: a
// human confirms every move).
const (
	// ProposalAdd inserts a memory a person wrote by hand into HOT.md.
	ProposalAdd = "add"
	// ProposalMove moves a memory to the tier and scope of the file its
	// line was moved to.
	ProposalMove = "move"
)

// ProposerImport proposes what a Markdown import found.
const ProposerImport = "import"

// mdProposal is the verdict JSON of an add or move proposal: the memory as
// the file line wants it, and where the line was.
type mdProposal struct {
	Content    string        `json:"content"`
	Kind       engine.Kind   `json:"kind"`
	Type       string        `json:"type"`
	Importance float64       `json:"importance"`
	Scope      string        `json:"scope"`
	Tier       engine.Tier   `json:"tier"`
	Status     engine.Status `json:"status"`
	File       string        `json:"file"`
	Line       int           `json:"line"`
}

// NewMDProposal is the add or move proposal of m read from line of a
// tier file.
func NewMDProposal(kind string, memoryID int64, m *engine.Memory, file string, line int, reason string, now time.Time) (*engine.Proposal, error) {
	v := mdProposal{Content: m.Content, Kind: m.Kind, Type: m.Type, Importance: m.Importance, Scope: m.Scope,
		Tier: m.Tier, Status: m.Status, File: file, Line: line}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("proposal of %s:%d: %w", file, line, err)
	}
	return &engine.Proposal{Kind: kind, MemoryID: memoryID, Proposer: ProposerImport, Verdict: raw, TargetType: string(m.Tier),
		Reason: reason, Confidence: 1, Status: engine.ProposalPending, CreatedAt: now}, nil
}

// OpenProposal reports whether a pending proposal of kind for memory id
// (or, for id 0, with the same content) is already waiting, so that
// importing the same files again proposes nothing twice.
func OpenProposal(ctx context.Context, q engine.Queries, kind string, id int64, content string) (bool, error) {
	ps, err := q.FindProposals(ctx, engine.ProposalFilter{Kind: kind, Status: engine.ProposalPending})
	if err != nil {
		return false, err
	}
	for _, p := range ps {
		if id != 0 && p.MemoryID == id {
			return true, nil
		}
		if id == 0 {
			var v mdProposal
			if json.Unmarshal(p.Verdict, &v) == nil && engine.ContentHash(v.Content) == engine.ContentHash(content) {
				return true, nil
			}
		}
	}
	return false, nil
}

// applyMarkdownProposal applies an approved add or move proposal: the
// memory the line described is inserted, or the memory takes the tier,
// scope and fields its moved line gave it. Audited under a like any change.
func applyMarkdownProposal(ctx context.Context, e *engine.Engine, q engine.Queries, p *engine.Proposal, a engine.Actor, now time.Time) (AppliedProposal, error) {
	ap := AppliedProposal{ProposalID: p.ID, Kind: p.Kind, MemoryID: p.MemoryID}
	var v mdProposal
	if err := json.Unmarshal(p.Verdict, &v); err != nil || v.Content == "" {
		return ap, engine.Errorf(engine.EINVALID, "proposal %d does not say what to write; reject it and import the file again", p.ID)
	}
	switch p.Kind {
	case ProposalAdd:
		m := &engine.Memory{Content: v.Content, Kind: v.Kind, Type: v.Type, Importance: v.Importance, Scope: v.Scope,
			Tier: v.Tier, Status: engine.StatusActive, Role: "curator", CreatedAt: now, LastAccessedAt: now}
		if err := e.PrepareMemory(ctx, m); err != nil {
			return ap, err
		}
		if err := q.InsertMemory(ctx, m, a); err != nil {
			return ap, err
		}
		ap.MemoryID, ap.From, ap.To = m.ID, v.File+" line", describeState(m)
		return ap, nil
	case ProposalMove:
		m, err := q.GetMemory(ctx, p.MemoryID)
		if err != nil {
			return ap, err
		}
		if m.Status == engine.StatusQuarantined {
			return ap, engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d was quarantined since; reject the proposal", p.ID, m.ID)
		}
		ap.From = describeState(m)
		if m.Content != v.Content {
			m.Content, m.Embedding, m.Embedder = v.Content, nil, ""
		}
		m.Kind, m.Type, m.Importance, m.Scope, m.Tier, m.Status = v.Kind, v.Type, v.Importance, v.Scope, v.Tier, v.Status
		if err := e.PrepareMemory(ctx, m); err != nil {
			return ap, err
		}
		if err := q.UpdateMemory(ctx, m, a, ProposalMove); err != nil {
			return ap, err
		}
		ap.To = describeState(m)
		return ap, nil
	}
	return ap, engine.Errorf(engine.EINVALID, "proposal %d: unknown kind %q", p.ID, p.Kind)
}

// MarkdownProposalText is the text an add or move proposal would write.
func MarkdownProposalText(p *engine.Proposal) string {
	var v mdProposal
	if json.Unmarshal(p.Verdict, &v) != nil {
		return ""
	}
	return v.Content
}
