package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/recall"
)

// The Curate tab's erase request by subject (E, issue 31): "everything
// about Jun". The subject is recalled (read-only, every tier, every
// candidate the recall's words find — curate.SubjectQuery), the candidates
// are listed with what the trace says of each, the curator confirms them
// one by one, and one erasure (curate.Erase) removes the confirmed ones —
// after two questions, the second typing the count, since it cannot be
// rolled back. It is the TUI's twin of `memtrace erase --subject`.

// eraseKey opens the view from the Curate tab.
var eraseKey = key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "erase by subject…"))

type eraseStage int

const (
	eraseAsk       eraseStage = iota // typing the subject
	eraseSearching                   // the recall runs
	erasePick                        // the candidates, confirmed one by one
	eraseConfirm                     // first question
	eraseCount                       // second question: type the count
	eraseRunning                     // the erasure runs
	eraseDone                        // what it removed
)

// eraseView is the open erase request.
type eraseView struct {
	stage   eraseStage
	input   textinput.Model // the subject, then the count
	subject string
	trace   *engine.Trace
	cands   []*engine.Memory
	// scores are the lexical scores of the trace's candidates stage, by id.
	scores    map[int64]float64
	confirmed map[int64]bool
	cursor    int
	report    *engine.EraseReport
	err       string
}

type (
	eraseFoundMsg struct {
		Subject string
		Trace   *engine.Trace
		Cands   []*engine.Memory
		Err     error
	}
	eraseDoneMsg struct {
		Report *engine.EraseReport
		Err    error
	}
)

type eraseKeys struct{ Up, Down, Toggle, Go, Back key.Binding }

func defaultEraseKeys() eraseKeys {
	return eraseKeys{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Toggle: key.NewBinding(key.WithKeys("space", "y"), key.WithHelp("space/y", "confirm this one (again: not)")),
		Go:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back · close")),
	}
}

// openErase opens the erase request on its subject input.
func (p curatePane) openErase() (curatePane, tea.Cmd) {
	in := textinput.New()
	in.Prompt = "everything about: "
	in.Placeholder = "a name or a subject (Jun, 준, the gym locker …)"
	in.CharLimit = 200
	in.SetStyles(p.c.styles.Input)
	v := &eraseView{input: in, confirmed: map[int64]bool{}}
	p.erase = v
	return p, v.input.Focus()
}

func (p curatePane) eraseKeyBindings() []key.Binding {
	k := defaultEraseKeys()
	switch p.erase.stage {
	case erasePick:
		if len(p.erase.cands) == 0 {
			return []key.Binding{k.Back}
		}
		return append(listMoves(len(p.erase.cands), k.Up, k.Down), k.Toggle, k.Go, k.Back)
	case eraseSearching, eraseRunning:
		return nil
	case eraseDone:
		return []key.Binding{k.Back}
	}
	return []key.Binding{k.Go, k.Back}
}

// eraseUpdate handles msg while the erase view is open; used is false for
// what the rest of the pane still handles (loads, resizes).
func (p curatePane) eraseUpdate(msg tea.Msg) (curatePane, tea.Cmd, bool) {
	v := *p.erase
	switch msg := msg.(type) {
	case eraseFoundMsg:
		if v.stage != eraseSearching {
			return p, nil, true
		}
		if msg.Err != nil {
			v.stage, v.err = eraseAsk, "recall: "+engine.ErrorMessage(msg.Err)
			p.erase = &v
			return p, v.input.Focus(), true
		}
		v.stage, v.subject, v.trace, v.cands, v.cursor, v.err = erasePick, msg.Subject, msg.Trace, msg.Cands, 0, ""
		v.scores = map[int64]float64{}
		if st := msg.Trace.Stage("candidates"); st != nil {
			for _, it := range st.Items {
				v.scores[it.ID] = it.Scores["bm25_score"]
			}
		}
		p.erase = &v
		return p, nil, true
	case eraseDoneMsg:
		p.writes--
		if msg.Err != nil {
			v.stage, v.err = erasePick, "erase: "+engine.ErrorMessage(msg.Err)
			p.erase = &v
			return p, nil, true
		}
		v.stage, v.report, v.err = eraseDone, msg.Report, ""
		p.erase = &v
		p, cmd := p.reload()
		return p, tea.Batch(cmd, storeChanged(paneCurate)), true
	case tea.KeyPressMsg:
		return p.eraseKey(v, msg)
	}
	if v.stage == eraseAsk || v.stage == eraseCount {
		var cmd tea.Cmd
		v.input, cmd = v.input.Update(msg) // the cursor's blink
		p.erase = &v
		return p, cmd, false
	}
	return p, nil, false
}

func (p curatePane) eraseKey(v eraseView, msg tea.KeyPressMsg) (curatePane, tea.Cmd, bool) {
	k := defaultEraseKeys()
	switch v.stage {
	case eraseSearching, eraseRunning:
		return p, nil, true // it finishes first
	case eraseDone:
		if key.Matches(msg, k.Back) {
			p.erase = nil
		}
		return p, nil, true
	case eraseAsk:
		switch {
		case key.Matches(msg, k.Back):
			p.erase = nil
			return p, nil, true
		case key.Matches(msg, k.Go):
			subject := strings.TrimSpace(v.input.Value())
			if subject == "" {
				v.err = "type whom or what to erase"
				p.erase = &v
				return p, nil, true
			}
			v.stage, v.err = eraseSearching, ""
			v.input.Blur()
			p.erase = &v
			return p, p.findErasable(subject), true
		}
	case erasePick:
		return p.erasePickKey(v, msg), nil, true
	case eraseConfirm:
		switch {
		case msg.String() == "y" || key.Matches(msg, k.Go):
			v.stage = eraseCount
			v.input.SetValue("")
			v.input.Prompt = fmt.Sprintf("type %d to erase them for good: ", v.count())
			v.input.Placeholder = ""
			p.erase = &v
			return p, v.input.Focus(), true
		case msg.String() == "n" || key.Matches(msg, k.Back):
			v.stage = erasePick
			p.erase = &v
		}
		return p, nil, true
	case eraseCount:
		switch {
		case key.Matches(msg, k.Back):
			v.stage, v.err = erasePick, "cancelled; nothing erased"
			v.input.Blur()
			p.erase = &v
			return p, nil, true
		case key.Matches(msg, k.Go):
			if strings.TrimSpace(v.input.Value()) != strconv.Itoa(v.count()) {
				v.stage, v.err = erasePick, fmt.Sprintf("cancelled (%q is not %d); nothing erased", safetext.SanitizeLine(v.input.Value()), v.count())
				v.input.Blur()
				p.erase = &v
				return p, nil, true
			}
			v.stage = eraseRunning
			v.input.Blur()
			p.erase = &v
			cmd := p.runErase(v)
			return p, cmd, true
		}
	}
	var cmd tea.Cmd
	v.input, cmd = v.input.Update(msg)
	p.erase = &v
	return p, cmd, true
}

func (p curatePane) erasePickKey(v eraseView, msg tea.KeyPressMsg) curatePane {
	k := defaultEraseKeys()
	switch {
	case key.Matches(msg, k.Back):
		v.stage, v.err = eraseAsk, ""
		v.input.Prompt = "everything about: "
		v.input.SetValue(v.subject)
		v.input.Focus()
	case key.Matches(msg, k.Up) && v.cursor > 0:
		v.cursor--
	case key.Matches(msg, k.Down) && v.cursor < len(v.cands)-1:
		v.cursor++
	case key.Matches(msg, k.Toggle) && len(v.cands) > 0:
		id := v.cands[v.cursor].ID
		v.confirmed[id] = !v.confirmed[id]
		if !v.confirmed[id] {
			delete(v.confirmed, id)
		}
		v.cursor = min(v.cursor+1, len(v.cands)-1)
	case key.Matches(msg, k.Go):
		if v.count() == 0 {
			v.err = "confirm the memories to erase one by one first (space)"
		} else {
			v.stage, v.err = eraseConfirm, ""
		}
	}
	p.erase = &v
	return p
}

// count is how many candidates the curator confirmed.
func (v eraseView) count() int { return len(v.confirmed) }

// findErasable recalls the subject and lists what its words find.
func (p curatePane) findErasable(subject string) tea.Cmd {
	ctx, eng := p.c.ctx, p.c.deps.Engine
	return func() tea.Msg {
		tr, err := recall.Recall(ctx, eng, curate.SubjectQuery(subject, eng.Now()))
		if err != nil {
			return send(paneCurate, eraseFoundMsg{Err: err})
		}
		cands, err := curate.SubjectCandidates(ctx, eng.Store(), tr)
		return send(paneCurate, eraseFoundMsg{Subject: subject, Trace: tr, Cands: cands, Err: err})
	}
}

// runErase erases the confirmed candidates in one erasure, then brings the
// engine's caches up to date.
func (p *curatePane) runErase(v eraseView) tea.Cmd {
	var ms []*engine.Memory
	for _, m := range v.cands {
		if v.confirmed[m.ID] {
			ms = append(ms, m)
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].ID < ms[j].ID })
	ctx, eng := p.c.ctx, p.c.deps.Engine
	reason := "erase request in the TUI: everything about " + v.subject
	p.writes++
	return func() tea.Msg {
		rep, err := curate.Erase(ctx, eng.Store(), ms, curatorActor, reason)
		if err == nil {
			err = eng.Refresh(ctx)
		}
		return send(paneCurate, eraseDoneMsg{Report: rep, Err: err})
	}
}
