package curate

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"memtrace/internal/outfile"

	"memtrace/engine"
)

// TriageOptions configure RunTriage.
type TriageOptions struct {
	Type         string // the population under review, e.g. "milestone"
	BackupDir    string // where Store.Backup writes; required
	VerdictsFile string // the JSONL verdict file to write; required
	SampleSize   int    // control sample size; 0 → DefaultControlSample, <0 → none
	Seed         uint64 // control sample seed
	Now          func() time.Time
	// Progress, when set, is called after every judged item.
	Progress func(done, total int, v engine.TriageVerdict)
}

// DefaultControlSample is how many proposals the curator judges blind
// before approving (seed 001 used 50 on 1,751 items).
const DefaultControlSample = 20

// TriageReport is the `memtrace triage --json` contract; the fields after
// NeedsReview are for people and stay out of the JSON.
type TriageReport struct {
	VerdictsFile string             `json:"verdicts_file"`
	Backup       *engine.BackupInfo `json:"backup"`
	Judged       int                `json:"judged"`
	ByVerdict    map[string]int     `json:"by_verdict"`
	NeedsReview  int                `json:"needs_review"`

	Model     string  `json:"-"`
	Cached    int     `json:"-"` // verdicts served from the judge cache
	Proposals int     `json:"-"` // proposals written or refreshed
	Kept      int     `json:"-"` // items whose earlier decided proposal was left as it was
	Control   []int64 `json:"-"` // proposal ids of the control sample
	Flagged   []int64 `json:"-"` // memory ids flagged injection_attempt
}

// RunTriage judges every active memory of o.Type (no keyword shortcut: old
// data holds genuine declarations without keywords), after a backup. The
// verdicts are pinned to o.VerdictsFile and stored as pending proposals in
// one transaction; nothing in memories changes. A run cut short leaves no
// proposals and a ".partial" verdict file; with the judge's cache the next
// run does not re-judge what was judged.
func RunTriage(ctx context.Context, st engine.Store, t engine.Triager, o TriageOptions) (*TriageReport, error) {
	if o.Type == "" {
		return nil, engine.Errorf(engine.EINVALID, "triage needs a memory type, e.g. --type milestone")
	}
	if o.BackupDir == "" || o.VerdictsFile == "" {
		return nil, engine.Errorf(engine.EINVALID, "triage needs a backup directory and a verdict file")
	}
	if o.Now == nil {
		o.Now = time.Now
		if c, ok := st.(interface{ Now() time.Time }); ok {
			o.Now = c.Now // the store's clock: the database's pinned one when set
		}
	}
	if o.SampleSize == 0 {
		o.SampleSize = DefaultControlSample
	}
	backup, err := st.Backup(ctx, o.BackupDir)
	if err != nil {
		return nil, fmt.Errorf("backup before triage: %w", err)
	}
	active, typ := engine.StatusActive, o.Type
	mems, _, err := st.FindMemories(ctx, engine.MemoryFilter{Status: &active, Type: &typ})
	if err != nil {
		return nil, fmt.Errorf("find %s memories: %w", o.Type, err)
	}
	sort.Slice(mems, func(i, j int) bool { return mems[i].ID < mems[j].ID })

	rep := &TriageReport{VerdictsFile: o.VerdictsFile, Backup: backup, ByVerdict: map[string]int{}, Model: t.Model()}
	verdicts := make([]engine.TriageVerdict, 0, len(mems))
	partial := o.VerdictsFile + ".partial"
	perm := st.FilePerm()
	if err := outfile.MkdirAll(filepath.Dir(o.VerdictsFile), perm); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot create the directory of %s: %v", o.VerdictsFile, err)
	}
	if err := outfile.RefuseLink(o.VerdictsFile); err != nil {
		return nil, err
	}
	f, err := outfile.Create(partial, perm)
	if err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot write the verdict file %s: %v", partial, err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for i, m := range mems {
		v, err := t.Triage(ctx, engine.TriageItem{ID: m.ID, Key: m.Key, Type: m.Type, Text: m.Content})
		if err != nil {
			return nil, fmt.Errorf("triage memory %d (%d of %d judged; run again to resume): %w", m.ID, i, len(mems), err)
		}
		v.MemoryID, v.Key, v.Type = m.ID, m.Key, m.Type
		line, _ := json.Marshal(v)
		if _, err := w.Write(append(line, '\n')); err != nil {
			return nil, engine.Errorf(engine.EUNAVAIL, "cannot write the verdict file %s: %v", partial, err)
		}
		verdicts = append(verdicts, v)
		rep.Judged++
		if v.Cached {
			rep.Cached++
		}
		if v.Verdict == engine.TriageNeedsReview || v.NeedsReview {
			rep.NeedsReview++
		} else {
			rep.ByVerdict[v.Label()]++
		}
		if v.HasFlag(engine.FlagInjectionAttempt) {
			rep.Flagged = append(rep.Flagged, m.ID)
		}
		if o.Progress != nil {
			o.Progress(i+1, len(mems), v)
		}
	}
	if err := w.Flush(); err == nil {
		err = f.Sync()
	} else {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot write the verdict file %s: %v", partial, err)
	}
	if err := f.Close(); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot write the verdict file %s: %v", partial, err)
	}

	now := o.Now().UTC()
	err = st.Update(ctx, func(q engine.Queries) error {
		rep.Proposals, rep.Kept, rep.Control = 0, 0, nil
		var fresh []*engine.Proposal
		for _, v := range verdicts {
			p, changed, err := upsertTriageProposal(ctx, q, v, now)
			if err != nil {
				return err
			}
			if !changed {
				rep.Kept++
				continue
			}
			rep.Proposals++
			fresh = append(fresh, p)
		}
		ids, err := markControlSample(ctx, q, fresh, o.Type, o.SampleSize, o.Seed)
		rep.Control = ids
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store triage proposals: %w", err)
	}
	if err := os.Rename(partial, o.VerdictsFile); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot move %s into place: %v", partial, err)
	}
	return rep, nil
}

// ProposalVerdict is the verdict JSON of a judge proposal: the pinned
// verdict, plus the control-sample marks the curator's blind review adds.
type ProposalVerdict struct {
	engine.TriageVerdict
	// Control marks a proposal of the random control sample; the curator
	// labels it blind (without seeing the verdict) before approving.
	Control bool `json:"control,omitempty"`
	// CuratorLabel is the curator's blind label: keep, echo,
	// roleplay_scene or retype:<type>.
	CuratorLabel string `json:"curator_label,omitempty"`
}

// ParseProposalVerdict reads the verdict JSON of a judge proposal; ok is
// false for proposals that carry no triage verdict.
func ParseProposalVerdict(p *engine.Proposal) (ProposalVerdict, bool) {
	var pv ProposalVerdict
	if len(p.Verdict) == 0 || json.Unmarshal(p.Verdict, &pv) != nil || pv.Verdict == "" {
		return pv, false
	}
	return pv, true
}

// proposalFor maps a verdict to the proposal a curator decides: echo and
// roleplay_scene → quarantine, retype → retype, keep → a keep record, and an
// answer that needs review → a keep record in status needs_review, which no
// approval can turn into an action by itself.
func proposalFor(v engine.TriageVerdict, now time.Time) *engine.Proposal {
	p := &engine.Proposal{
		MemoryID:   v.MemoryID,
		Proposer:   engine.ProposerJudge,
		Model:      v.Model,
		PromptHash: v.PromptHash,
		Confidence: v.Confidence,
		Reason:     v.Reason,
		Status:     engine.ProposalPending,
		CreatedAt:  now,
	}
	switch {
	case v.Verdict == engine.TriageNeedsReview || v.NeedsReview:
		p.Kind, p.Status = engine.ProposalKeep, engine.ProposalReview
	case v.Verdict == engine.TriageEcho || v.Verdict == engine.TriageRoleplay:
		p.Kind = engine.ProposalQuarantine
	case v.Verdict == engine.TriageRetype:
		p.Kind, p.TargetType = engine.ProposalRetype, v.RetypeTo
	default:
		p.Kind = engine.ProposalKeep
	}
	return p
}

// judgeKinds are the proposal kinds a triage writes.
func isJudgeKind(kind string) bool {
	return kind == engine.ProposalKeep || kind == engine.ProposalQuarantine || kind == engine.ProposalRetype
}

// upsertTriageProposal stores v as a proposal. An open (pending or
// needs_review) judge proposal of the memory is refreshed in place, keeping
// its control mark and the curator's blind label; a decided one (approved,
// rejected) with the same verdict is left alone, so a rerun never overrides
// the curator. changed is false when nothing was written.
func upsertTriageProposal(ctx context.Context, q engine.Queries, v engine.TriageVerdict, now time.Time) (*engine.Proposal, bool, error) {
	existing, err := q.FindProposals(ctx, engine.ProposalFilter{MemoryID: v.MemoryID, Proposer: engine.ProposerJudge})
	if err != nil {
		return nil, false, err
	}
	p := proposalFor(v, now)
	pv := ProposalVerdict{TriageVerdict: v}
newest:
	for i := len(existing) - 1; i >= 0; i-- {
		old := existing[i]
		if !isJudgeKind(old.Kind) {
			continue
		}
		prev, _ := ParseProposalVerdict(old)
		switch old.Status {
		case engine.ProposalPending, engine.ProposalReview:
			p.ID, p.CreatedAt = old.ID, old.CreatedAt
			pv.Control, pv.CuratorLabel = prev.Control, prev.CuratorLabel
		case engine.ProposalApproved, engine.ProposalRejected:
			if prev.Label() == v.Label() && prev.Model == v.Model {
				return old, false, nil
			}
		}
		break newest
	}
	raw, _ := json.Marshal(pv)
	p.Verdict = raw
	if p.ID != 0 {
		return p, true, q.UpdateProposal(ctx, p)
	}
	return p, true, q.InsertProposal(ctx, p)
}
