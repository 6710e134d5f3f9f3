package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// ApplyOptions configure ApplyApproved.
type ApplyOptions struct {
	Actor string           // audit actor; "" → "curator"
	Batch string           // audit batch id; "" → "apply-<time>"
	Now   func() time.Time // nil: time.Now
	// Verdicts, when set (the pinned verdict file), limits the apply to
	// approved proposals of memories it lists, and each such proposal must
	// carry the same verdict, model and input hash as its line: a file and a
	// database that disagree apply nothing.
	Verdicts []TriageVerdict
	// AfterEach is called inside the transaction after each memory update
	// with the count so far (progress; crash tests block in it).
	AfterEach func(n int)
}

// ApplyReport is the `memtrace apply --json` contract; Confirmed (keep
// records marked applied without a change) is for people.
type ApplyReport struct {
	Batch     string `json:"batch"`
	Applied   int    `json:"applied"`
	Confirmed int    `json:"-"`
}

// applyExpect is the state one applied proposal must leave.
type applyExpect struct {
	proposal *Proposal
	memory   int64
	status   Status
	typ      string
	tier     Tier
}

// ApplyApproved applies every approved proposal in ONE transaction: it sets
// status, orig_type and type (tier for demote/archive) per proposal with an
// audit row under one batch, marks the proposals applied with the batch,
// then re-reads what it wrote and checks it 1:1 against the approved
// verdicts — audit rows, memory states, applied proposals. Any mismatch
// rolls the whole transaction back and nothing changes.
//
// A promotion needs the engine (the HOT rule is embedded and indexed like
// any memory): an approved promote proposal makes this function refuse the
// whole apply; (*Engine).ApplyApproved applies it.
func ApplyApproved(ctx context.Context, w Updater, o ApplyOptions) (*ApplyReport, error) {
	return applyApproved(ctx, w, o, nil)
}

// ApplyApproved applies every approved proposal, promotions included, in
// ONE transaction of the engine, verified 1:1 like the package function
// ApplyApproved. A promotion writes the HOT rule by the same code as
// ApproveProposals, with the wording the curator settled on when approving
// it (ApprovePromotion), else the proposed one; its lesson is marked
// promoted. RollbackApplied (`memtrace rollback BATCH`) undoes the batch.
// Without a batch id it takes a fresh one from the database
// (Queries.NextBatchID), so that applies under a pinned clock never collide.
func (e *Engine) ApplyApproved(ctx context.Context, o ApplyOptions) (*ApplyReport, error) {
	if o.Now == nil {
		o.Now = e.Now
	}
	return applyApproved(ctx, e, o, func(ctx context.Context, q Queries, p *Proposal, a Actor, wording string, now time.Time) (AppliedProposal, error) {
		if p.Kind == ProposalAdd || p.Kind == ProposalMove {
			return e.applyMarkdownProposal(ctx, q, p, a, now)
		}
		return e.applyPromotion(ctx, q, p, a, wording, now)
	})
}

// promoteFunc writes the HOT memory of an approved promote proposal; wording
// "" takes the proposal's own.
type promoteFunc func(ctx context.Context, q Queries, p *Proposal, a Actor, wording string, now time.Time) (AppliedProposal, error)

func applyApproved(ctx context.Context, w Updater, o ApplyOptions, promote promoteFunc) (*ApplyReport, error) {
	if o.Actor == "" {
		o.Actor = ProposerCurator
	}
	if o.Now == nil {
		o.Now = time.Now
		if c, ok := w.(interface{ Now() time.Time }); ok {
			o.Now = c.Now // the store's clock: the database's pinned one when set
		}
	}
	now := o.Now().UTC()
	rep := &ApplyReport{}
	err := w.Update(ctx, func(q Queries) error {
		rep.Applied, rep.Confirmed = 0, 0
		if o.Batch == "" {
			b, err := q.NextBatchID(ctx, BatchApply)
			if err != nil {
				return err
			}
			o.Batch = b
		}
		rep.Batch = o.Batch
		a := Actor{Name: o.Actor, Batch: o.Batch}
		if prior, err := q.AuditForBatch(ctx, o.Batch); err != nil {
			return err
		} else if len(prior) > 0 {
			return Errorf(ECONFLICT, "batch %s already exists; choose another batch id", o.Batch)
		}
		approved, err := q.FindProposals(ctx, ProposalFilter{Status: ProposalApproved})
		if err != nil {
			return err
		}
		if o.Verdicts != nil {
			if approved, err = matchVerdicts(approved, o.Verdicts); err != nil {
				return err
			}
		}
		if len(approved) == 0 {
			return Errorf(EINVALID, "no approved proposals to apply; approve some in the Curate tab first")
		}
		var expect []applyExpect
		for _, p := range approved {
			ex, changed, err := applyOne(ctx, q, p, a, promote, now)
			if err != nil {
				return err
			}
			if p.MemoryID == 0 {
				p.MemoryID = ex.memory // the HOT memory a promotion wrote
			}
			expect = append(expect, ex) // a keep too: its decision is an audit row
			if changed {
				rep.Applied++
				if o.AfterEach != nil {
					o.AfterEach(rep.Applied)
				}
			} else {
				rep.Confirmed++
			}
			p.Status, p.Batch = ProposalApplied, o.Batch
			if err := q.UpdateProposal(ctx, p); err != nil {
				return err
			}
		}
		return verifyApply(ctx, q, o.Batch, approved, expect)
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// matchVerdicts keeps the approved proposals whose memory the verdict file
// lists, and refuses when a proposal's pinned verdict differs from the line.
func matchVerdicts(approved []*Proposal, vs []TriageVerdict) ([]*Proposal, error) {
	byMemory := make(map[int64]TriageVerdict, len(vs))
	for _, v := range vs {
		byMemory[v.MemoryID] = v
	}
	var out []*Proposal
	for _, p := range approved {
		v, ok := byMemory[p.MemoryID]
		if !ok || !isJudgeKind(p.Kind) {
			continue
		}
		pv, ok := ParseProposalVerdict(p)
		if !ok || pv.Label() != v.Label() || pv.Model != v.Model || pv.InputHash != v.InputHash {
			return nil, Errorf(ECONFLICT, "proposal %d (memory %d) does not match the verdict file (%s by %s there); re-run triage or apply --approved",
				p.ID, p.MemoryID, v.Label(), v.Model)
		}
		out = append(out, p)
	}
	return out, nil
}

// applyOne changes the memory of one approved proposal. changed is false
// for a keep record, which only confirms the memory as it is.
func applyOne(ctx context.Context, q Queries, p *Proposal, a Actor, promote promoteFunc, now time.Time) (applyExpect, bool, error) {
	ex := applyExpect{proposal: p, memory: p.MemoryID}
	if p.Kind == ProposalAdd || p.Kind == ProposalMove {
		if promote == nil {
			return ex, false, Errorf(EINVALID, "proposal %d (%s, from a Markdown import) needs the engine; apply with `memtrace apply --approved` or the Curate tab", p.ID, p.Kind)
		}
		ap, err := promote(ctx, q, p, a, "", now)
		if err != nil {
			return ex, false, err
		}
		m, err := q.GetMemory(ctx, ap.MemoryID)
		if err != nil {
			return ex, false, err
		}
		ex.memory, ex.status, ex.typ, ex.tier = m.ID, m.Status, m.Type, m.Tier
		return ex, true, nil
	}
	if p.Kind == ProposalPromote {
		if promote == nil {
			return ex, false, Errorf(EINVALID, "proposal %d is a promotion, which needs the engine; apply with `memtrace apply --approved` or the Curate tab, or approve it with `memtrace approve %d`", p.ID, p.ID)
		}
		ap, err := promote(ctx, q, p, a, "", now)
		if err != nil {
			return ex, false, err
		}
		// What the HOT-rule write must leave, checked by verifyApply.
		ex.memory, ex.status, ex.typ, ex.tier = ap.MemoryID, StatusActive, "rule", TierHot
		if p.TargetType == string(TierWarm) {
			ex.tier = TierWarm
		}
		return ex, true, nil
	}
	m, err := q.GetMemory(ctx, p.MemoryID)
	if err != nil {
		return ex, false, fmt.Errorf("proposal %d: %w", p.ID, err)
	}
	stale := func(what string) error {
		return Errorf(ECONFLICT, "proposal %d: memory %d %s since it was proposed (now %s, %s); reject the proposal or re-run triage; nothing was applied",
			p.ID, m.ID, what, m.Status, m.Type)
	}
	if pv, ok := ParseProposalVerdict(p); ok && isJudgeKind(p.Kind) {
		if m.Status != StatusActive || m.Type != pv.Type {
			return ex, false, stale("changed")
		}
	}
	switch p.Kind {
	case ProposalKeep:
		// The memory stays as it is; the decision is audited (before =
		// after) under the batch.
		if err := q.UpdateMemory(ctx, m, a, ProposalKeep); err != nil {
			return ex, false, err
		}
		ex.status, ex.typ, ex.tier = m.Status, m.Type, m.Tier
		return ex, false, nil
	case ProposalQuarantine:
		if m.Status == StatusQuarantined {
			return ex, false, stale("was quarantined")
		}
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Status = StatusQuarantined
	case ProposalRetype:
		if p.TargetType == "" || p.TargetType == m.Type {
			return ex, false, Errorf(EINVALID, "proposal %d: retype of memory %d has no new type", p.ID, m.ID)
		}
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Type = p.TargetType
	case ProposalRestore:
		if m.Status == StatusActive {
			return ex, false, stale("is already active")
		}
		reactivate(m, p.TargetType)
	case ProposalDemote:
		if m.Status != StatusActive {
			return ex, false, stale("is not active")
		}
		switch Tier(p.TargetType) {
		case TierCold:
			m.Tier, m.Status = TierCold, StatusArchived
		case TierWarm, "":
			m.Tier = TierWarm
		default:
			return ex, false, Errorf(EINVALID, "proposal %d: cannot demote to %q", p.ID, p.TargetType)
		}
	case ProposalArchive:
		if m.Status != StatusActive {
			return ex, false, stale("is not active")
		}
		m.Tier, m.Status = TierCold, StatusArchived
	default:
		return ex, false, Errorf(EINVALID, "proposal %d: unknown kind %q", p.ID, p.Kind)
	}
	if err := q.UpdateMemory(ctx, m, a, p.Kind); err != nil {
		return ex, false, err
	}
	ex.status, ex.typ, ex.tier = m.Status, m.Type, m.Tier
	return ex, true, nil
}

// verifyApply is the 1:1 check of seed 001 ("count가 reviewed verdict와
// 1:1로 맞는지 확인"), made inside the transaction so a mismatch undoes it.
func verifyApply(ctx context.Context, q Queries, batch string, approved []*Proposal, expect []applyExpect) error {
	var problems []string
	rows, err := q.AuditForBatch(ctx, batch)
	if err != nil {
		return err
	}
	want := map[int64]applyExpect{}
	for _, ex := range expect {
		if _, dup := want[ex.memory]; dup {
			problems = append(problems, fmt.Sprintf("memory %d has more than one approved change", ex.memory))
		}
		want[ex.memory] = ex
	}
	if len(rows) != len(expect) {
		problems = append(problems, fmt.Sprintf("%d audit rows for %d approved changes", len(rows), len(expect)))
	}
	for _, r := range rows {
		if _, ok := want[r.MemoryID]; !ok {
			problems = append(problems, fmt.Sprintf("memory %d changed without an approved proposal", r.MemoryID))
		}
	}
	ids := make([]int64, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		ex := want[id]
		m, err := q.GetMemory(ctx, id)
		if err != nil {
			return err
		}
		if m.Status != ex.status || m.Type != ex.typ || m.Tier != ex.tier {
			problems = append(problems, fmt.Sprintf("memory %d is %s/%s/%s, expected %s/%s/%s", id, m.Status, m.Type, m.Tier, ex.status, ex.typ, ex.tier))
		}
	}
	applied, err := q.FindProposals(ctx, ProposalFilter{Batch: batch, Status: ProposalApplied})
	if err != nil {
		return err
	}
	if len(applied) != len(approved) {
		problems = append(problems, fmt.Sprintf("%d proposals marked applied for %d approved", len(applied), len(approved)))
	}
	if len(problems) > 0 {
		return Errorf(EINTERNAL, "apply of batch %s did not verify (%s); it was rolled back and nothing changed",
			batch, strings.Join(problems, "; "))
	}
	return nil
}

// reactivate makes m active again, out of COLD, with the target type, or
// its original type when there is none.
func reactivate(m *Memory, targetType string) {
	m.Status = StatusActive
	if m.Tier == TierCold {
		m.Tier = TierWarm
	}
	if targetType != "" {
		m.Type = targetType
	} else if m.OrigType != "" {
		m.Type = m.OrigType
	}
}

// markRolledBack marks the applied proposals of ps rolled back and returns
// the lessons they promoted to candidate.
func markRolledBack(ctx context.Context, q Queries, ps []*Proposal) error {
	for _, p := range ps {
		if p.Status != ProposalApplied {
			continue
		}
		p.Status = ProposalRolledBack
		if err := q.UpdateProposal(ctx, p); err != nil {
			return err
		}
		if err := unpromoteLesson(ctx, q, p); err != nil {
			return err
		}
	}
	return nil
}

// ReadVerdictFile reads a JSONL verdict file written by RunTriage.
func ReadVerdictFile(path string) ([]TriageVerdict, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, Errorf(ENOTFOUND, "verdict file %s does not exist; run `memtrace triage` first", path)
	} else if err != nil {
		return nil, Errorf(EUNAVAIL, "cannot read verdict file %s: %v", path, err)
	}
	defer f.Close()
	var out []TriageVerdict
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var v TriageVerdict
		if err := json.Unmarshal([]byte(b), &v); err != nil || v.MemoryID == 0 || v.Verdict == "" {
			return nil, Errorf(EINVALID, "verdict file %s line %d is not a verdict; was it edited by hand?", path, line)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, Errorf(EUNAVAIL, "cannot read verdict file %s: %v", path, err)
	}
	return out, nil
}
