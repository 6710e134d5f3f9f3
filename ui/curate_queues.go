package ui

import (
	"fmt"
	"slices"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/wording"
	"memtrace/tiers"
)

// The Curate tab's queues: the open proposals by kind, with the
// selection (space, V ranges) that A and x act on.

// queuesView is the queue of one kind: its open proposals (most
// consequential first) in a rowList, the selection, and the selected
// proposal's detail.
type queuesView struct {
	curateList[*engine.Proposal]
	keys     curateKeys
	props    []*engine.Proposal // every proposal loaded, of every queue
	memories curateMemories
	kindIdx  int // the queue shown, in curateKinds
	selected map[int64]bool
	anchor   int // where a V range began (-1: none)
	// what waits elsewhere, for the header: held captures, new
	// supersession links
	held, links int
}

func newQueuesView(c *common, k curateKeys) queuesView {
	return queuesView{curateList: newCurateList[*engine.Proposal](c), keys: k, memories: curateMemories{},
		selected: map[int64]bool{}, anchor: -1}
}

// Update moves the list (keys, a click on a row of it, the wheel), moves
// to the previous or next queue, or selects the proposal under the cursor
// and moves down; it reports whether msg did one of them.
func (v queuesView) Update(msg tea.Msg) (queuesView, bool) {
	var used bool
	if w, ok := msg.(tea.MouseWheelMsg); ok && w.Mouse().Y >= v.list.height {
		// The wheel below the column header and the rows scrolls the
		// detail (its reason, its memory whole).
		v.dscroll, used = v.dscroll.update(msg, v.keys.scroll, len(v.detail()), curateDetailLines)
		return v, used
	}
	if v.curateList, used = v.curateList.Update(msg); used {
		v.dscroll = detailScroll{} // another proposal's detail starts at its top
		return v, true
	}
	if v.dscroll, used = v.dscroll.update(msg, v.keys.scroll, len(v.detail()), curateDetailLines); used {
		return v, true
	}
	kmsg, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, false
	}
	n := len(curateKinds())
	switch {
	case key.Matches(kmsg, v.keys.Prev):
		return v.setKind((v.kindIdx + n - 1) % n), true
	case key.Matches(kmsg, v.keys.Next):
		return v.setKind((v.kindIdx + 1) % n), true
	case key.Matches(kmsg, v.keys.Select):
		cur, ok := v.list.current()
		if !ok {
			return v, false
		}
		if v.selected[cur.ID] {
			delete(v.selected, cur.ID)
		} else {
			v.selected[cur.ID] = true
		}
		v.list = v.list.moveTo(min(len(v.list.rows)-1, v.list.cursor+1))
		return v, true
	}
	return v, false
}

// setProps takes a load: the proposals and the memories they are about.
// A selected proposal that is no longer open leaves the selection.
func (v queuesView) setProps(props []*engine.Proposal, memories curateMemories) queuesView {
	v.props, v.memories = props, memories
	for id := range v.selected {
		if pr := v.proposal(id); pr == nil || !isOpen(pr) {
			delete(v.selected, id)
		}
	}
	v.list = v.list.setRows(v.kindRows())
	return v
}

// setKind shows queue i of curateKinds from its first row.
func (v queuesView) setKind(i int) queuesView {
	v.kindIdx, v.anchor = i, -1
	v.list = v.list.setRows(v.kindRows()).reset()
	return v
}

// setFilter filters the queue by s from the first row (no range is
// being marked) and says what of s it could not use.
func (v queuesView) setFilter(s string) (queuesView, string) {
	var problem string
	v.curateList, problem = v.curateList.setFilter(curateQueueQuery(v.subjectAndReason, v.knownFlags), s)
	v.anchor = -1
	return v, problem
}

// knownFlags are the flags a filter's flag: can name: the judge's
// (engine.VerdictFlags) and any other an open proposal carries, once each.
func (v queuesView) knownFlags() []string {
	out := slices.Clone(engine.VerdictFlags)
	for _, pr := range v.props {
		if !isOpen(pr) {
			continue
		}
		for _, f := range flagsOf(pr) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// kindRows are the open proposals of the current queue, the most
// consequential first (the heartbeat's score: importance × (1 + reach));
// proposals without a score keep their order.
func (v queuesView) kindRows() []*engine.Proposal {
	kind := curateKinds()[v.kindIdx]
	var out []*engine.Proposal
	for _, pr := range v.props {
		if isOpen(pr) && queueKind(pr) == kind {
			out = append(out, pr)
		}
	}
	tiers.SortProposalsByScore(out)
	return out
}

// firstNonEmpty is the index of the first queue with an open proposal,
// so the tab opens on work rather than on an empty list; the current
// queue when every queue is empty.
func (v queuesView) firstNonEmpty() int {
	for i, kind := range curateKinds() {
		for _, pr := range v.props {
			if isOpen(pr) && queueKind(pr) == kind {
				return i
			}
		}
	}
	return v.kindIdx
}

// queueKind is the kind a proposal is queued under.
func queueKind(pr *engine.Proposal) string {
	if pr.Status == engine.ProposalReview {
		return curateReview
	}
	return pr.Kind
}

// isOpen: pending, needing review, or approved and waiting to be applied.
func isOpen(pr *engine.Proposal) bool {
	return pr.Status == engine.ProposalPending || pr.Status == engine.ProposalReview || pr.Status == engine.ProposalApproved
}

func (v queuesView) proposal(id int64) *engine.Proposal {
	for _, pr := range v.props {
		if pr.ID == id {
			return pr
		}
	}
	return nil
}

// approved are the proposals approved and waiting for P.
func (v queuesView) approved() []int64 {
	var ids []int64
	for _, pr := range v.props {
		if pr.Status == engine.ProposalApproved {
			ids = append(ids, pr.ID)
		}
	}
	return ids
}

// batchTargets are the selected proposals, or with none selected every
// pending proposal of the current queue.
func (v queuesView) batchTargets() []int64 {
	var ids []int64
	if len(v.selected) > 0 {
		for id := range v.selected {
			if pr := v.proposal(id); pr != nil && pr.Status == engine.ProposalPending {
				ids = append(ids, id)
			}
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		return ids
	}
	for _, pr := range v.list.rows {
		if pr.Status == engine.ProposalPending {
			ids = append(ids, pr.ID)
		}
	}
	return ids
}

// selectedOpen are the selected proposals that are still open, in id order.
func (v queuesView) selectedOpen() []int64 {
	var ids []int64
	for _, pr := range v.props {
		if v.selected[pr.ID] && isOpen(pr) {
			ids = append(ids, pr.ID)
		}
	}
	return ids
}

// countText states the counts per kind: "12 proposals (9 quarantine, 3 retype)".
func (v queuesView) countText(ids []int64) string {
	by := map[string]int{}
	for _, id := range ids {
		if pr := v.proposal(id); pr != nil {
			by[pr.Kind]++
		}
	}
	s := wording.Count(len(ids), "proposal") + " ("
	first := true
	for _, kind := range curateKinds() {
		if by[kind] == 0 {
			continue
		}
		if !first {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", by[kind], kind)
		first = false
	}
	return s + ")"
}

// markRange is V: the first press marks where a range starts, the second
// selects every row from there to the cursor (lazygit's range select). It
// says what it did.
func (v queuesView) markRange() (queuesView, string) {
	rows := v.list.rows
	if v.anchor < 0 || v.anchor >= len(rows) {
		v.anchor = v.list.cursor
		return v, fmt.Sprintf("range from proposal %d: move, then V selects through the cursor (esc cancels)", rows[v.list.cursor].ID)
	}
	from, to := v.list.rangeFrom(v.anchor)
	n := 0
	for i := from; i <= to; i++ {
		if !v.selected[rows[i].ID] {
			v.selected[rows[i].ID] = true
			n++
		}
	}
	v.anchor = -1
	return v, fmt.Sprintf("selected %s (%d selected): A approves them, x rejects them", wording.Count(n, "more proposal"), len(v.selected))
}

// inRange reports whether queue row i is in the range being marked.
func (v queuesView) inRange(i int) bool {
	if v.anchor < 0 {
		return false
	}
	return i >= min(v.anchor, v.list.cursor) && i <= max(v.anchor, v.list.cursor)
}

// subject is what a queue row shows: the memory's text, or for a promotion
// the rule it would write.
func (v queuesView) subject(pr *engine.Proposal) string {
	if pr.Kind == engine.ProposalPromote {
		w, _ := ruleWording(pr)
		return "HOT rule: " + w
	}
	if pr.Kind == curate.ProposalAdd {
		return "new " + pr.TargetType + " line: " + curate.MarkdownProposalText(pr)
	}
	return v.memories.text(pr.MemoryID)
}

func (v queuesView) subjectAndReason(pr *engine.Proposal) string {
	return v.subject(pr) + " " + curate.ShownReason(pr)
}

// curateMemories are the memories the open proposals are about, by id.
type curateMemories map[int64]*engine.Memory

func (ms curateMemories) text(id int64) string {
	if m, ok := ms[id]; ok {
		return m.Content
	}
	return fmt.Sprintf("(memory %d not loaded)", id)
}
