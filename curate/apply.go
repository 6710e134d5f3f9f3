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

// ApplyOptions configure Apply.
type ApplyOptions struct {
	// IDs are the proposals to apply, in this order: an approval (`memtrace
	// approve ID…`), where each must be open — pending, needs_review, or
	// approved and not yet applied. Nil applies every approved proposal
	// (`memtrace apply`, the Curate tab's P).
	IDs   []int64
	Actor string // audit actor and decider; "" → curator
	// Batch is the audit batch id; "" takes a fresh one from the database
	// (Queries.NextBatchID), of kind approve with IDs, apply without.
	Batch string
	Now   func() time.Time // nil: the engine's clock
	// Wording replaces, per promote proposal id, the rule text the HOT
	// memory gets (the curator's edit); without one a promotion takes the
	// wording recorded when it was approved (ApprovePromotion), else the
	// proposed one.
	Wording map[int64]string
	// Verdicts, when set (the pinned verdict file), limits the apply to
	// approved proposals of memories it lists, and each such proposal must
	// carry the same verdict, model and input hash as its line: a file and a
	// database that disagree apply nothing.
	Verdicts []engine.TriageVerdict
	// AfterEach is called inside the transaction after each memory update
	// with the count so far (progress; crash tests block in it).
	AfterEach func(n int)
}

// ApplyReport is what Apply did, and the `memtrace apply --json` contract:
// Applied counts the proposals that changed a memory. Confirmed (keep
// records marked applied without a change) and Proposals are for people
// and callers; Withdrawn lists the open proposals the batch made moot.
type ApplyReport struct {
	Batch     string            `json:"batch"`
	Applied   int               `json:"applied"`
	Withdrawn []int64           `json:"withdrawn,omitempty"`
	Confirmed int               `json:"-"`
	Proposals []AppliedProposal `json:"-"`
}

// applyExpect is the state one applied proposal must leave.
type applyExpect struct {
	proposal *engine.Proposal
	memory   int64
	status   engine.Status
	typ      string
	tier     engine.Tier
}

// Apply is every curator write that applies proposals — `memtrace
// approve`, `memtrace apply`, the Curate tab — in ONE transaction of the
// engine and ONE audit batch: each proposal changes its memory by the one
// switch of applyOne (a promotion writes its HOT rule, embedded and indexed
// like any memory), is marked applied with the batch, and withdraws the
// open proposals on its memory that it makes moot (withdrawMoot). Then
// verifyApply re-reads what was written and checks it 1:1 against the
// proposals — audit rows, memory states, applied and withdrawn proposals.
// A proposal that is not open, whose memory is no longer in the state it
// was proposed for, or that conflicts with another of the same apply, and
// any mismatch, roll the whole transaction back: nothing changes.
// Rollback of the batch (`memtrace rollback BATCH`) undoes all of it.
func Apply(ctx context.Context, e *engine.Engine, o ApplyOptions) (*ApplyReport, error) {
	if o.Actor == "" {
		o.Actor = engine.ProposerCurator
	}
	if o.Now == nil {
		o.Now = e.Now
	}
	now := o.Now().UTC()
	kind := engine.BatchApply
	if o.IDs != nil {
		kind = engine.BatchApprove
	}
	rep := &ApplyReport{}
	err := e.Update(ctx, func(q engine.Queries) error {
		*rep = ApplyReport{Batch: o.Batch}
		if rep.Batch == "" {
			b, err := q.NextBatchID(ctx, kind)
			if err != nil {
				return err
			}
			rep.Batch = b
		} else if err := checkCallerBatch(ctx, q, rep.Batch); err != nil {
			return err
		}
		a := engine.Actor{Name: o.Actor, Batch: rep.Batch}
		ps, err := proposalsToApply(ctx, q, o)
		if err != nil {
			return err
		}
		keep := make(map[int64]bool, len(ps))
		for _, p := range ps {
			keep[p.ID] = true
		}
		var expect []applyExpect
		for _, p := range ps {
			ap, ex, changed, err := applyOne(ctx, e, q, p, a, o.Wording[p.ID], now)
			if err != nil {
				return err
			}
			if p.MemoryID == 0 {
				p.MemoryID = ap.MemoryID // the memory a promotion or an add wrote
			}
			expect = append(expect, ex) // a keep too: its decision is an audit row
			rep.Proposals = append(rep.Proposals, ap)
			if changed {
				rep.Applied++
				if o.AfterEach != nil {
					o.AfterEach(rep.Applied)
				}
			} else {
				rep.Confirmed++
			}
			if p.Status != engine.ProposalApproved {
				p.DecidedBy, p.DecidedAt = o.Actor, now
			}
			p.Status, p.Batch = engine.ProposalApplied, rep.Batch
			if err := q.UpdateProposal(ctx, p); err != nil {
				return err
			}
			w, err := withdrawMoot(ctx, q, p, keep, a, now)
			if err != nil {
				return err
			}
			rep.Withdrawn = append(rep.Withdrawn, w...)
		}
		return verifyApply(ctx, q, rep, ps, expect)
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// proposalsToApply reads the proposals o names (every approved one when it
// names none), refusing any that is not open and two that conflict on one
// memory: applying both would leave the memory as neither said.
func proposalsToApply(ctx context.Context, q engine.Queries, o ApplyOptions) ([]*engine.Proposal, error) {
	var ps []*engine.Proposal
	if o.IDs == nil {
		approved, err := q.FindProposals(ctx, engine.ProposalFilter{Status: engine.ProposalApproved})
		if err != nil {
			return nil, err
		}
		ps = approved
	}
	seen := map[int64]bool{}
	for _, id := range o.IDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		p, err := q.GetProposal(ctx, id)
		if err != nil {
			return nil, err
		}
		if p.Status != engine.ProposalPending && p.Status != engine.ProposalReview && p.Status != engine.ProposalApproved {
			return nil, engine.Errorf(engine.ECONFLICT, "proposal %d is %s, not pending; nothing was applied", id, p.Status)
		}
		ps = append(ps, p)
	}
	if o.Verdicts != nil {
		var err error
		if ps, err = matchVerdicts(ps, o.Verdicts); err != nil {
			return nil, err
		}
	}
	if len(ps) == 0 {
		return nil, engine.Errorf(engine.EINVALID, "no approved proposals to apply; approve some in the Curate tab first")
	}
	byMemory := map[int64][]*engine.Proposal{}
	for _, p := range ps {
		if p.MemoryID == 0 {
			continue
		}
		for _, other := range byMemory[p.MemoryID] {
			if ProposalsConflict(other.Kind, p.Kind) {
				return nil, engine.Errorf(engine.ECONFLICT, "proposals %d (%s) and %d (%s) of memory %d conflict; reject one of them, nothing was applied",
					other.ID, other.Kind, p.ID, p.Kind, p.MemoryID)
			}
		}
		byMemory[p.MemoryID] = append(byMemory[p.MemoryID], p)
	}
	return ps, nil
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

// verifyApply is the 1:1 check of seed 001 ("count가 reviewed verdict와
// 1:1로 맞는지 확인"), made inside the transaction so a mismatch undoes it:
// one audit row per applied and per withdrawn proposal, each memory in the
// state its last applied proposal left, every proposal applied or
// withdrawn under the batch, and no other change.
func verifyApply(ctx context.Context, q engine.Queries, rep *ApplyReport, applied []*engine.Proposal, expect []applyExpect) error {
	var problems []string
	rows, err := q.AuditForBatch(ctx, rep.Batch)
	if err != nil {
		return err
	}
	want := map[int64]applyExpect{}
	for _, ex := range expect {
		want[ex.memory] = ex // applied in order: the last one stands
	}
	if n := len(expect) + len(rep.Withdrawn); len(rows) != n {
		problems = append(problems, fmt.Sprintf("%d audit rows for %d applied and %d withdrawn proposals", len(rows), len(expect), len(rep.Withdrawn)))
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
	marked, err := q.FindProposals(ctx, engine.ProposalFilter{Batch: rep.Batch})
	if err != nil {
		return err
	}
	count := map[string]int{}
	for _, p := range marked {
		count[p.Status]++
	}
	if count[engine.ProposalApplied] != len(applied) {
		problems = append(problems, fmt.Sprintf("%d proposals marked applied for %d approved", count[engine.ProposalApplied], len(applied)))
	}
	if count[ProposalWithdrawn] != len(rep.Withdrawn) {
		problems = append(problems, fmt.Sprintf("%d proposals marked withdrawn for %d made moot", count[ProposalWithdrawn], len(rep.Withdrawn)))
	}
	if len(problems) > 0 {
		return engine.Errorf(engine.EINTERNAL, "apply of batch %s did not verify (%s); it was rolled back and nothing changed",
			rep.Batch, strings.Join(problems, "; "))
	}
	return nil
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

// checkCallerBatch refuses a caller-chosen batch id the store issued, or
// could issue later (one of its own form, engine.StoreBatchForm), or that
// already names a batch: a later batch taking the same id would make one
// rollback undo both.
func checkCallerBatch(ctx context.Context, q engine.Queries, batch string) error {
	if strings.TrimSpace(batch) != batch || batch == "" {
		return engine.Errorf(engine.EINVALID, "batch id %q: want a name without surrounding spaces, e.g. --batch cleanup-2026-q1", batch)
	}
	if engine.StoreBatchForm(batch) {
		return engine.Errorf(engine.EINVALID, "batch id %q has the form of the ids memtrace issues (KIND-TIME-N), which a later batch could be given; leave --batch out to get a fresh one, or choose a name of your own, e.g. --batch cleanup-2026-q1", batch)
	}
	if kind, _, err := q.BatchKind(ctx, batch); err != nil {
		return err
	} else if kind != "" {
		return engine.Errorf(engine.ECONFLICT, "batch %s already exists; choose another batch id", batch)
	}
	if prior, err := q.AuditForBatch(ctx, batch); err != nil {
		return err
	} else if len(prior) > 0 {
		return engine.Errorf(engine.ECONFLICT, "batch %s already exists; choose another batch id", batch)
	}
	return nil
}
