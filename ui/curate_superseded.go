package ui

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
)

// The Curate tab's superseded queue (S): the supersession links made since
// the curator last marked them reviewed — by the capture rule, the judge,
// or by hand — each with who made it and in which batch. u undoes the
// selected link (capture.Unsupersede: the older memory is current again, in
// a curator batch of its own that the history lists); m marks every link
// shown reviewed, so the queue starts empty until the next link. The mark
// is the newest link's audit row id, kept in the settings: links are
// ordered by when they were written, whatever the clock said.

// settingSupersededReviewed is the settings key of the review mark.
const settingSupersededReviewed = curate.SettingSupersededReviewed

// supersededLink is one link: Old is superseded by memory NewID.
type supersededLink struct {
	Old     *engine.Memory
	NewID   int64
	NewText string
	Actor   string // who wrote the link
	Batch   string
	AuditID int64 // the audit row that wrote it
}

// supersededLinks are the links since the review mark, newest first, and
// how many links the store holds in all.
type supersededLinks struct {
	Links    []supersededLink
	All      int
	Reviewed int64 // the mark: links written by audit rows up to it are reviewed
}

// loadSupersededLinks reads the links written after the review mark.
func loadSupersededLinks(ctx context.Context, st engine.Store) (supersededLinks, error) {
	var out supersededLinks
	var err error
	if out.Reviewed, err = curate.SupersededReviewed(ctx, st); err != nil {
		return out, err
	}
	olds, total, err := st.FindMemories(ctx, engine.MemoryFilter{Superseded: true})
	if err != nil {
		return out, err
	}
	out.All = total
	// One read for every standing link: the audit rows after the mark of
	// the memories superseded now. The row that wrote a link as it stands
	// is the newest whose after has it and whose before did not; a link
	// with no such row after the mark was written before it (reviewed).
	rows, err := st.FindAudit(ctx, engine.AuditFilter{AfterID: out.Reviewed, Superseded: true})
	if err != nil {
		return out, err
	}
	byID := make(map[int64]*engine.Memory, len(olds))
	for _, m := range olds {
		byID[m.ID] = m
	}
	made := map[int64]*engine.AuditEntry{}
	for _, a := range rows {
		m := byID[a.MemoryID]
		if m != nil && a.After != nil && a.After.SupersededBy == m.SupersededBy && (a.Before == nil || a.Before.SupersededBy != m.SupersededBy) {
			made[m.ID] = a
		}
	}
	var newer []int64
	for _, m := range olds {
		a, ok := made[m.ID]
		if !ok {
			continue
		}
		out.Links = append(out.Links, supersededLink{Old: m, NewID: m.SupersededBy, Actor: a.Actor, Batch: a.Batch, AuditID: a.ID})
		newer = append(newer, m.SupersededBy)
	}
	if len(newer) > 0 {
		ms, _, err := st.FindMemories(ctx, engine.MemoryFilter{IDs: newer})
		if err != nil {
			return out, err
		}
		text := map[int64]string{}
		for _, m := range ms {
			text[m.ID] = m.Content
		}
		for i := range out.Links {
			out.Links[i].NewText = text[out.Links[i].NewID]
		}
	}
	// Newest first: by the audit row that wrote the link.
	sort.SliceStable(out.Links, func(i, j int) bool { return out.Links[i].AuditID > out.Links[j].AuditID })
	return out, nil
}

// supersededView lists the links since the review mark, newest first,
// with the selected link's two facts.
type supersededView struct {
	curateList[supersededLink]
	links supersededLinks
}

func newSupersededView(c *common) supersededView {
	return supersededView{curateList: newCurateList[supersededLink](c)}
}

func (v supersededView) setLinks(links supersededLinks) supersededView {
	v.links, v.list = links, v.list.setRows(links.Links)
	return v
}

func (v supersededView) header() string {
	st := v.c.styles
	return st.App.Title.Render(fmt.Sprintf("SUPERSEDED %d", len(v.links.Links))) +
		st.App.Muted.Render(safetext.Truncate(fmt.Sprintf(" · links since the last review (%d in all) · u undoes one · m marks reviewed", v.links.All), max(10, v.width-14)))
}

// keyBindings are the view's keys, with the filter's and the list's.
func (v supersededView) keyBindings(k curateKeys, filter, move []key.Binding) []key.Binding {
	var out []key.Binding
	n := len(v.list.rows)
	if n > 0 {
		out = []key.Binding{k.Unlink}
	}
	if len(v.links.Links) > 0 {
		out = append(out, k.Reviewed)
	}
	out = append(append(out, filter...), listMoves(n, move...)...)
	return append(out, k.Leave, k.Superseded, k.History, k.Reload)
}

func (v supersededView) View() string {
	st := v.c.styles
	cols := textable.Fit([]textable.Column{{Title: "OLD", Width: 6, Right: true}, {Title: "NEW", Width: 6, Right: true},
		{Title: "BY", Width: 9, Drop: 1}, {Title: "VALID TO", Width: 10, Drop: 2}, {Title: "FORMER FACT → NEWER FACT"}}, v.width, textable.MinText)
	empty := "no supersession links since the last review"
	if v.list.filtered() {
		empty = "no link matches the filter (esc clears it)"
	}
	out := v.list.table(st, cols, func(_ int, l supersededLink) ([]string, bool) {
		return []string{fmt.Sprint(l.Old.ID), fmt.Sprint(l.NewID), l.Actor, l.Old.ValidTo.UTC().Format("2006-01-02"),
			l.Old.Content + " → " + l.NewText}, false
	}, empty)
	var detail []string
	if l, ok := v.list.current(); ok {
		w := max(10, v.width-2)
		detail = append(detail, st.Detail.Heading.Render(safetext.Truncate(fmt.Sprintf("── memory %d superseded by #%d · by %s in batch %s", l.Old.ID, l.NewID, l.Actor, l.Batch), v.width)))
		for _, s := range wrapText("former: "+l.Old.Content, w, 2) {
			detail = append(detail, "  "+s)
		}
		for _, s := range wrapText("newer:  "+l.NewText, w, 2) {
			detail = append(detail, "  "+s)
		}
		detail = append(detail, st.Detail.Label.Render(fmt.Sprintf("valid to %s · recorded %s", l.Old.ValidTo.UTC().Format("2006-01-02"), l.Old.SupersededAt.UTC().Format("2006-01-02 15:04"))))
		detail = append(detail, st.App.Muted.Render(fitHeader(v.width, []headerPart{part("u undo this link"),
			{forms: []string{" (memory current again)", ""}, rank: 1}, part(" · m mark all reviewed"),
			{forms: []string{" · link by hand: s in Memories", ""}}})))
	}
	return strings.Join(append(out, fill(detail, curateDetailLines)...), "\n")
}

func (p curatePane) supersededKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	l, ok := p.sup.list.current()
	switch {
	case key.Matches(msg, k.Unlink) && ok:
		return p.unlink(l)
	case key.Matches(msg, k.Reviewed):
		return p.markReviewed()
	}
	return p, nil
}

// unlink undoes one link: the older memory is current again.
func (p curatePane) unlink(l supersededLink) (curatePane, tea.Cmd) {
	ctx, eng := p.c.ctx, p.c.deps.Engine
	id, newer := l.Old.ID, l.NewID
	return p.task(func() (string, error) {
		_, batch, err := capture.Unsupersede(ctx, eng, id, engine.Actor{Name: curatorActor})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("memory %d is current again (no longer superseded by #%d) in batch %s; the history's u undoes it", id, newer, batch), nil
	})
}

// markReviewed moves the review mark past every link shown.
func (p curatePane) markReviewed() (curatePane, tea.Cmd) {
	var mark int64
	for _, l := range p.sup.links.Links {
		mark = max(mark, l.AuditID)
	}
	if mark <= p.sup.links.Reviewed {
		p.status = "no new links to mark reviewed"
		return p, nil
	}
	n := len(p.sup.links.Links)
	ctx, eng := p.c.ctx, p.c.deps.Engine
	return p.task(func() (string, error) {
		if err := curate.MarkSupersededReviewed(ctx, eng, mark); err != nil {
			return "", err
		}
		return fmt.Sprintf("marked %s reviewed: they leave this queue; the links stay (Memories shows them)", wording.Count(n, "link")), nil
	})
}
