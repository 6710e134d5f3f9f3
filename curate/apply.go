package curate

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

	"memtrace/engine"
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
	Verdicts []engine.TriageVerdict
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
	proposal *engine.Proposal
	memory   int64
	status   engine.Status
	typ      string
	tier     engine.Tier
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
// whole apply; ApplyApproved applies it.
func ApplyApprovedStore(ctx context.Context, w Updater, o ApplyOptions) (*ApplyReport, error) {
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
func ApplyApproved(ctx context.Context, e *engine.Engine, o ApplyOptions) (*ApplyReport, error) {
	if o.Now == nil {
		o.Now = e.Now
	}
	return applyApproved(ctx, e, o, func(ctx context.Context, q engine.Queries, p *engine.Proposal, a engine.Actor, wording string, now time.Time) (AppliedProposal, error) {
		if p.Kind == ProposalAdd || p.Kind == ProposalMove {
			return applyMarkdownProposal(ctx, e, q, p, a, now)
		}
		return applyPromotion(ctx, e, q, p, a, wording, now)
	})
}

// promoteFunc writes the HOT memory of an approved promote proposal; wording
// "" takes the proposal's own.
type promoteFunc func(ctx context.Context, q engine.Queries, p *engine.Proposal, a engine.Actor, wording string, now time.Time) (AppliedProposal, error)

func applyApproved(ctx context.Context, w Updater, o ApplyOptions, promote promoteFunc) (*ApplyReport, error) {
	if o.Actor == "" {
		o.Actor = engine.ProposerCurator
	}
	if o.Now == nil {
		o.Now = time.Now
		if c, ok := w.(interface{ Now() time.Time }); ok {
			o.Now = c.Now // the store's clock: the database's pinned one when set
		}
	}
	now := o.Now().UTC()
	rep := &ApplyReport{}
	err := w.Update(ctx, func(q engine.Queries) error {
		rep.Applied, rep.Confirmed = 0, 0
		if o.Batch == "" {
			b, err := q.NextBatchID(ctx, engine.BatchApply)
			if err != nil {
				return err
			}
			o.Batch = b
		}
		rep.Batch = o.Batch
		a := engine.Actor{Name: o.Actor, Batch: o.Batch}
		if prior, err := q.AuditForBatch(ctx, o.Batch); err != nil {
			return err
		} else if len(prior) > 0 {
			return engine.Errorf(engine.ECONFLICT, "batch %s already exists; choose another batch id", o.Batch)
		}
		approved, err := q.FindProposals(ctx, engine.ProposalFilter{Status: engine.ProposalApproved})
		if err != nil {
			return err
		}
		if o.Verdicts != nil {
			if approved, err = matchVerdicts(approved, o.Verdicts); err != nil {
				return err
			}
		}
		if len(approved) == 0 {
			return engine.Errorf(engine.EINVALID, "no approved proposals to apply; approve some in the Curate tab first")
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
			p.Status, p.Batch = engine.ProposalApplied, o.Batch
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
func matchVerdicts(approved []*engine.Proposal, vs []engine.TriageVerdict) ([]*engine.Proposal, error) {
	byMemory := make(map[int64]engine.TriageVerdict, len(vs))
	for _, v := range vs {
		byMemory[v.MemoryID] = v
	}
	var out []*engine.Proposal
	for _, p := range approved {
		v, ok := byMemory[p.MemoryID]
		if !ok || !isJudgeKind(p.Kind) {
			continue
		}
		pv, ok := ParseProposalVerdict(p)
		if !ok || pv.Label() != v.Label() || pv.Model != v.Model || pv.InputHash != v.InputHash {
			return nil, engine.Errorf(engine.ECONFLICT, "proposal %d (memory %d) does not match the verdict file (%s by %s there); re-run triage or apply --approved",
				p.ID, p.MemoryID, v.Label(), v.Model)
		}
		out = append(out, p)
	}
	return out, nil
}

// applyOne changes the memory of one approved proposal. changed is false
// for a keep record, which only confirms the memory as it is.
func applyOne(ctx context.Context, q engine.Queries, p *engine.Proposal, a engine.Actor, promote promoteFunc, now time.Time) (applyExpect, bool, error) {
	ex := applyExpect{proposal: p, memory: p.MemoryID}
	if p.Kind == ProposalAdd || p.Kind == ProposalMove {
		if promote == nil {
			return ex, false, engine.Errorf(engine.EINVALID, "proposal %d (%s, from a Markdown import) needs the engine; apply with `memtrace apply --approved` or the Curate tab", p.ID, p.Kind)
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
	if p.Kind == engine.ProposalPromote {
		if promote == nil {
			return ex, false, engine.Errorf(engine.EINVALID, "proposal %d is a promotion, which needs the engine; apply with `memtrace apply --approved` or the Curate tab, or approve it with `memtrace approve %d`", p.ID, p.ID)
		}
		ap, err := promote(ctx, q, p, a, "", now)
		if err != nil {
			return ex, false, err
		}
		// What the HOT-rule write must leave, checked by verifyApply.
		ex.memory, ex.status, ex.typ, ex.tier = ap.MemoryID, engine.StatusActive, "rule", engine.TierHot
		if p.TargetType == string(engine.TierWarm) {
			ex.tier = engine.TierWarm
		}
		return ex, true, nil
	}
	m, err := q.GetMemory(ctx, p.MemoryID)
	if err != nil {
		return ex, false, fmt.Errorf("proposal %d: %w", p.ID, err)
	}
	stale := func(what string) error {
		return engine.Errorf(engine.ECONFLICT, "proposal %d: memory %d %s since it was proposed (now %s, %s); reject the proposal or re-run triage; nothing was applied",
			p.ID, m.ID, what, m.Status, m.Type)
	}
	if pv, ok := ParseProposalVerdict(p); ok && isJudgeKind(p.Kind) {
		if m.Status != engine.StatusActive || m.Type != pv.Type {
			return ex, false, stale("changed")
		}
	}
	switch p.Kind {
	case engine.ProposalKeep:
		// The memory stays as it is; the decision is audited (before =
		// after) under the batch.
		if err := q.UpdateMemory(ctx, m, a, engine.ProposalKeep); err != nil {
			return ex, false, err
		}
		ex.status, ex.typ, ex.tier = m.Status, m.Type, m.Tier
		return ex, false, nil
	case engine.ProposalQuarantine:
		if m.Status == engine.StatusQuarantined {
			return ex, false, stale("was quarantined")
		}
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Status = engine.StatusQuarantined
	case engine.ProposalRetype:
		if p.TargetType == "" || p.TargetType == m.Type {
			return ex, false, engine.Errorf(engine.EINVALID, "proposal %d: retype of memory %d has no new type", p.ID, m.ID)
		}
		if m.OrigType == "" {
			m.OrigType = m.Type
		}
		m.Type = p.TargetType
	case engine.ProposalRestore:
		if m.Status == engine.StatusActive {
			return ex, false, stale("is already active")
		}
		reactivate(m, p.TargetType)
	case engine.ProposalDemote:
		if m.Status != engine.StatusActive {
			return ex, false, stale("is not active")
		}
		switch engine.Tier(p.TargetType) {
		case engine.TierCold:
			m.Tier, m.Status = engine.TierCold, engine.StatusArchived
		case engine.TierWarm, "":
			m.Tier = engine.TierWarm
		default:
			return ex, false, engine.Errorf(engine.EINVALID, "proposal %d: cannot demote to %q", p.ID, p.TargetType)
		}
	case engine.ProposalArchive:
		if m.Status != engine.StatusActive {
			return ex, false, stale("is not active")
		}
		m.Tier, m.Status = engine.TierCold, engine.StatusArchived
	default:
		return ex, false, engine.Errorf(engine.EINVALID, "proposal %d: unknown kind %q", p.ID, p.Kind)
	}
	if err := q.UpdateMemory(ctx, m, a, p.Kind); err != nil {
		return ex, false, err
	}
	ex.status, ex.typ, ex.tier = m.Status, m.Type, m.Tier
	return ex, true, nil
}

// verifyApply is the 1:1 check of seed 001 ("count가 reviewed verdict와
// 1:1로 맞는지 확인"), made inside the transaction so a mismatch undoes it.
func verifyApply(ctx context.Context, q engine.Queries, batch string, approved []*engine.Proposal, expect []applyExpect) error {
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
	applied, err := q.FindProposals(ctx, engine.ProposalFilter{Batch: batch, Status: engine.ProposalApplied})
	if err != nil {
		return err
	}
	if len(applied) != len(approved) {
		problems = append(problems, fmt.Sprintf("%d proposals marked applied for %d approved", len(applied), len(approved)))
	}
	if len(problems) > 0 {
		return engine.Errorf(engine.EINTERNAL, "apply of batch %s did not verify (%s); it was rolled back and nothing changed",
			batch, strings.Join(problems, "; "))
	}
	return nil
}

// reactivate makes m active again, out of COLD, with the target type, or
// its original type when there is none.
func reactivate(m *engine.Memory, targetType string) {
	m.Status = engine.StatusActive
	if m.Tier == engine.TierCold {
		m.Tier = engine.TierWarm
	}
	if targetType != "" {
		m.Type = targetType
	} else if m.OrigType != "" {
		m.Type = m.OrigType
	}
}

// markRolledBack marks the applied proposals of ps rolled back and returns
// the lessons they promoted to candidate.
func markRolledBack(ctx context.Context, q engine.Queries, ps []*engine.Proposal) error {
	for _, p := range ps {
		if p.Status != engine.ProposalApplied {
			continue
		}
		p.Status = engine.ProposalRolledBack
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
func ReadVerdictFile(path string) ([]engine.TriageVerdict, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, engine.Errorf(engine.ENOTFOUND, "verdict file %s does not exist; run `memtrace triage` first", path)
	} else if err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot read verdict file %s: %v", path, err)
	}
	defer f.Close()
	var out []engine.TriageVerdict
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var v engine.TriageVerdict
		if err := json.Unmarshal([]byte(b), &v); err != nil || v.MemoryID == 0 || v.Verdict == "" {
			return nil, engine.Errorf(engine.EINVALID, "verdict file %s line %d is not a verdict; was it edited by hand?", path, line)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, engine.Errorf(engine.EUNAVAIL, "cannot read verdict file %s: %v", path, err)
	}
	return out, nil
}
