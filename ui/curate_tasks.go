package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/wording"
)

// The Curate tab's tasks. Each runs in a tea.Cmd and answers with a
// message for paneCurate; writes go through the engine (its caches follow)
// and end with a reload.

const curateHistoryLimit = 50

func (p curatePane) reload() (curatePane, tea.Cmd) {
	st := p.c.deps.Store
	p.seq++
	p.loading = true
	seq, ctx := p.seq, p.c.ctx
	return p, func() tea.Msg {
		msg := curateLoadedMsg{Seq: seq, Memories: map[int64]*engine.Memory{}}
		msg.Props, msg.Err = st.FindProposals(ctx, engine.ProposalFilter{})
		if msg.Err == nil {
			var ids []int64
			for _, pr := range msg.Props {
				if pr.MemoryID != 0 && isOpen(pr) {
					ids = append(ids, pr.MemoryID)
				}
			}
			if len(ids) > 0 {
				var ms []*engine.Memory
				ms, _, msg.Err = st.FindMemories(ctx, engine.MemoryFilter{IDs: ids})
				for _, m := range ms {
					msg.Memories[m.ID] = m
				}
			}
		}
		if msg.Err == nil {
			msg.Batches, msg.Err = curate.BatchHistory(ctx, st, curateHistoryLimit)
		}
		if msg.Err == nil {
			msg.Held, _, msg.Err = st.FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld})
		}
		if msg.Err == nil {
			msg.Links, msg.Err = loadSupersededLinks(ctx, st)
		}
		return send(paneCurate, msg)
	}
}

// task runs fn as a write and reports what with its outcome.
func (p curatePane) task(fn func() (string, error)) (curatePane, tea.Cmd) {
	p.writes++
	return p, func() tea.Msg {
		what, err := fn()
		return send(paneCurate, curateDoneMsg{What: what, Err: err})
	}
}

func (p curatePane) decide(ids []int64, status string) (curatePane, tea.Cmd) {
	ctx, w, now := p.c.ctx, p.c.deps.Engine, p.c.now()
	return p.task(func() (string, error) {
		n, err := curate.DecideProposals(ctx, w, ids, status, curatorActor, now)
		return fmt.Sprintf("%s %s", status, wording.Count(n, "proposal")), err
	})
}

func (p curatePane) override(id int64, label string) (curatePane, tea.Cmd) {
	ctx, w, now := p.c.ctx, p.c.deps.Engine, p.c.now()
	return p.task(func() (string, error) {
		return fmt.Sprintf("proposal %d approved as %s", id, label), curate.OverrideProposal(ctx, w, id, label, curatorActor, now)
	})
}

func (p curatePane) label(label string) (curatePane, tea.Cmd) {
	pr, ok := p.control.list.current()
	if !ok {
		return p, nil
	}
	return p.labelID(pr.ID, label)
}

func (p curatePane) labelID(id int64, label string) (curatePane, tea.Cmd) {
	ctx, w := p.c.ctx, p.c.deps.Engine
	// Move on to the next item at once; the label lands with the reload.
	p.control = p.control.next()
	return p.task(func() (string, error) {
		return fmt.Sprintf("proposal %d labelled %s", id, label), curate.LabelControl(ctx, w, id, label)
	})
}

// approveApply approves and applies one proposal in a batch of its own
// (curate.Apply with its id, as `memtrace approve ID` does); the reload
// puts the cursor on the proposal that was below it (the applied one
// leaves the queue).
func (p curatePane) approveApply(id int64) (curatePane, tea.Cmd) {
	ctx, eng, now := p.c.ctx, p.c.deps.Engine, p.c.now
	if rows, i := p.queues.list.rows, p.queues.list.cursor; i+1 < len(rows) {
		p.focus = rows[i+1].ID
	}
	return p.task(func() (string, error) {
		rep, err := curate.Apply(ctx, eng, curate.ApplyOptions{IDs: []int64{id}, Actor: curatorActor, Now: now})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("proposal %d approved and applied in batch %s", id, rep.Batch), nil
	})
}

// apply applies every approved proposal in one batch, promotions included
// (the engine embeds and indexes their HOT rules).
func (p curatePane) apply() (curatePane, tea.Cmd) {
	ctx, eng, now := p.c.ctx, p.c.deps.Engine, p.c.now
	return p.task(func() (string, error) {
		rep, err := curate.Apply(ctx, eng, curate.ApplyOptions{Actor: curatorActor, Now: now})
		if err != nil {
			return "", err
		}
		what := fmt.Sprintf("applied %s, confirmed %s", wording.Count(rep.Applied, "change"), wording.Count(rep.Confirmed, "keep"))
		if len(rep.Withdrawn) > 0 {
			what += ", withdrew " + wording.Count(len(rep.Withdrawn), "moot proposal")
		}
		return what + " in batch " + rep.Batch, nil
	})
}

func (p curatePane) rollback(batch string) (curatePane, tea.Cmd) {
	ctx, st, eng := p.c.ctx, p.c.deps.Store, p.c.deps.Engine
	return p.task(func() (string, error) {
		rep, err := curate.RollbackApplied(ctx, st, batch, curatorActor)
		if err != nil {
			return "", err
		}
		// The rollback went around the engine: let it pick the restored
		// rows up.
		if err := eng.Refresh(ctx); err != nil {
			return "", fmt.Errorf("rolled back %s, but the engine did not refresh (press R): %w", batch, err)
		}
		if rep.Policy {
			return fmt.Sprintf("rolled back policy batch %s: the database runs with the policy before it again (a restart of memtrace recalls under it); no memory changed", rep.Batch), nil
		}
		if rep.Rejected > 0 && rep.Restored == 0 {
			// A rejection: no memory changed; the proposals are open again.
			return fmt.Sprintf("rolled back rejection %s: %s open again as they were; no memory changed", rep.Batch, wording.Count(rep.Rejected, "proposal")), nil
		}
		what := fmt.Sprintf("rolled back %s: %s restored", rep.Batch, wording.Memories(rep.Restored))
		if rep.Effect.Changed() > 0 {
			what += " (" + rep.Effect.String() + ")"
		}
		if rep.Proposals > 0 {
			what += fmt.Sprintf(", %s rolled back", wording.Count(rep.Proposals, "proposal"))
		}
		return what, nil
	})
}
