package ui

import (
	"context"
	"fmt"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
)

// The Curate tab's superseded queue (S): the supersession links made since
// the curator last marked them reviewed — by the capture rule, the judge,
// or by hand — each with who made it and in which batch. u undoes the
// selected link (engine.Unsupersede: the older memory is current again, in
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

// visibleLinks are the links the filter lets through.
func (p curatePane) visibleLinks() []supersededLink {
	if p.matchLink == nil {
		return p.links.Links
	}
	return supersededQuery().filter(p.links.Links, p.matchLink)
}

func (p curatePane) supersededKey(msg tea.KeyPressMsg) (curatePane, tea.Cmd) {
	k := p.keys
	links := p.visibleLinks()
	if p.navigate(msg) {
		return p, nil
	}
	switch {
	case key.Matches(msg, k.Unlink) && p.supCur < len(links):
		return p.unlink(links[p.supCur])
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
		if eng == nil {
			return "", engine.Errorf(engine.EUNAVAIL, "unlinking needs the engine; use `memtrace supersede %d --unlink`", id)
		}
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
	for _, l := range p.links.Links {
		mark = max(mark, l.AuditID)
	}
	if mark <= p.links.Reviewed {
		p.status = "no new links to mark reviewed"
		return p, nil
	}
	n := len(p.links.Links)
	ctx, eng := p.c.ctx, p.c.deps.Engine
	return p.task(func() (string, error) {
		if err := curate.MarkSupersededReviewed(ctx, eng, mark); err != nil {
			return "", err
		}
		return fmt.Sprintf("marked %d link(s) reviewed: they leave this queue; the links stay (Memories shows them)", n), nil
	})
}

func (p curatePane) supersededView() []string {
	st := p.c.styles
	links := p.visibleLinks()
	cols := layoutColumns([]column{{Title: "OLD", Width: 6, Right: true}, {Title: "NEW", Width: 6, Right: true},
		{Title: "BY", Width: 9}, {Title: "VALID TO", Width: 10}, {Title: "FORMER FACT → NEWER FACT"}}, p.width, 10)
	out := append(p.filterLines(), st.Table.Header.Render(tableHeader(cols)))
	from, to := p.window(p.supCur, p.supTop, len(links))
	for i := from; i < to; i++ {
		l := links[i]
		row := tableRow(cols, []string{fmt.Sprint(l.Old.ID), fmt.Sprint(l.NewID), l.Actor, l.Old.ValidTo.UTC().Format("2006-01-02"),
			l.Old.Content + " → " + l.NewText})
		if i == p.supCur {
			row = st.Table.Selected.Render(row)
		}
		out = append(out, row)
	}
	if len(links) == 0 {
		msg := "no supersession links since the last review"
		if p.filter.input.Value() != "" {
			msg = "no link matches the filter (esc clears it)"
		}
		out = append(out, st.App.Muted.Render(msg))
	}
	out = fill(out, p.listRows()+1+len(p.filterLines()))
	var detail []string
	if p.supCur < len(links) {
		l := links[p.supCur]
		w := max(10, p.width-2)
		detail = append(detail, st.Detail.Heading.Render(safetext.Truncate(fmt.Sprintf("── memory %d superseded by #%d · by %s in batch %s", l.Old.ID, l.NewID, l.Actor, l.Batch), p.width)))
		for _, s := range wrapText("former: "+l.Old.Content, w, 2) {
			detail = append(detail, "  "+s)
		}
		for _, s := range wrapText("newer:  "+l.NewText, w, 2) {
			detail = append(detail, "  "+s)
		}
		detail = append(detail, st.Detail.Label.Render(fmt.Sprintf("valid to %s · recorded %s", l.Old.ValidTo.UTC().Format("2006-01-02"), l.Old.SupersededAt.UTC().Format("2006-01-02 15:04"))))
		detail = append(detail, st.App.Muted.Render(fitHeader(p.width, []headerPart{part("u undo this link"),
			{forms: []string{" (memory current again)", ""}, rank: 1}, part(" · m mark all reviewed"),
			{forms: []string{" · link by hand: s in Memories", ""}}})))
	}
	return append(out, fill(detail, curateDetailLines)...)
}
