package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"memtrace/curate"
	"memtrace/engine"
)

// curateKinds are the proposal queues in the order the Curate tab shows
// them; "review" is the judge answers that need a curator's label.
func curateKinds() []string {
	return []string{engine.ProposalQuarantine, engine.ProposalRetype, engine.ProposalKeep, curateReview,
		engine.ProposalRestore, engine.ProposalPromote, engine.ProposalDemote, engine.ProposalArchive,
		curate.ProposalAdd, curate.ProposalMove}
}

const curateReview = "review"

// retypeTargets are the labels the retype chooser offers.
func retypeTargets() []string { return engine.Types() }

type curateMode int

const (
	modeControl    curateMode = iota // blind labelling of the control sample
	modeQueue                        // proposals by kind
	modeHistory                      // applied batches, with rollback
	modeHeld                         // captures the judge held (the review queue): store or skip by hand
	modeBatch                        // one batch's changes (enter in the history), before a rollback
	modeSuperseded                   // supersession links made since the last review, with undo
)

type curateKeys struct {
	Up, Down, Prev, Next                   key.Binding
	Approve, Reject, Retype, Select, Batch key.Binding
	ApplyAll, History, Control, Reload     key.Binding
	LabelKeep, LabelEcho, LabelRoleplay    key.Binding
	Rollback, Confirm, Cancel              key.Binding
	ApproveWording, CancelWording          key.Binding
	Held, StoreHeld, SkipHeld              key.Binding
	Range, UndoReject, Changes, Back       key.Binding
	// Leave: esc from a view (history, held, control, superseded) back
	// to the queues.
	Leave                             key.Binding
	Superseded, Unlink, Reviewed      key.Binding
	RejectReason, ApproveApply, Force key.Binding
	scroll                            scrollKeys
	filter                            filterKeys
}

// curateListKeys are the list keys of Curate's lists; space is not a page
// down here: it selects.
func curateListKeys() listKeys {
	k := defaultListKeys()
	k.PageDown = key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down"))
	return k
}

func defaultCurateKeys() curateKeys {
	return curateKeys{
		Up:            key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:          key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Prev:          key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous queue")),
		Next:          key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next queue")),
		Approve:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Reject:        key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject…")),
		Retype:        key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "retype…")),
		Select:        key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "select & move down")),
		Batch:         key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "approve selected/queue…")),
		ApplyAll:      key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "apply approved…")),
		History:       key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "batch history")),
		Control:       key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "control sample")),
		Reload:        key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reload")),
		LabelKeep:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "label keep")),
		LabelEcho:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "label echo")),
		LabelRoleplay: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "label role-play scene")),
		Rollback:      key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "roll back batch…")),
		Confirm:       key.NewBinding(key.WithKeys("enter", "y"), key.WithHelp("enter/y", "confirm")),
		Cancel:        key.NewBinding(key.WithKeys("esc", "n"), key.WithHelp("esc/n", "cancel")),
		// In the wording editor y and n are letters of the rule.
		ApproveWording: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "approve with this wording")),
		CancelWording:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Held:           key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "held captures")),
		StoreHeld:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "store as…")),
		SkipHeld:       key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "skip…")),
		Range:          key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "select range")),
		UndoReject:     key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo last reject")),
		Changes:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "list changes")),
		Back:           key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to history")),
		Leave:          key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to queues")),
		Superseded:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "superseded links")),
		Unlink:         key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo link")),
		Reviewed:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark all reviewed")),
		RejectReason:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "reject with this reason")),
		ApproveApply:   key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "approve & apply…")),
		Force:          key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "roll back")),
		scroll:         defaultScrollKeys(),
		filter:         defaultFilterKeys(),
	}
}

// Messages of the Curate tab's tasks.
type (
	curateLoadedMsg struct {
		Seq      int
		Props    []*engine.Proposal
		Memories map[int64]*engine.Memory
		Batches  []engine.BatchInfo
		Held     []*engine.ReviewItem
		Links    supersededLinks
		Err      error
	}
	curateDoneMsg struct {
		What string // shown in the status line when it worked
		Err  error
		// Rejected is the batch of a rejection that worked: u undoes it.
		Rejected string
		// Undid is the rejection batch an undo rolled back.
		Undid string
	}
)

// dialog is an open confirmation or chooser.
type dialog struct {
	kind    string // "batch", "apply", "approve-apply", "rollback", "rollback-force", "retype", "wording", "store" (a held capture), "skip", "reject"
	text    string
	ids     []int64
	batch   string
	cursor  int                  // retype chooser
	control bool                 // the retype chooser labels a control item
	target  int64                // the proposal the chooser or the editor is for
	current string               // the retype chooser: the memory's type now ("" unknown)
	memory  int64                // the retype chooser: the proposal's memory
	plan    *engine.RollbackPlan // what a rollback would do
	// original and shown are a promotion's wording and the neutralised
	// form the editor was filled with.
	original, shown string
	input           textinput.Model // the wording editor of a promotion, the reason of a rejection
	// draft is an edit from $EDITOR that was over the limit: ctrl+o
	// opens it again instead of the input's text, so it is not lost.
	draft string
}

// curatePane is the Curate tab: the control sample labelled blind first,
// then queues of pending proposals by kind with approve, reject, retype and
// batch approval, apply of everything approved as one batch, and the batch
// history with rollback.
type curatePane struct {
	c    *common
	keys curateKeys

	mode curateMode
	// The views, one a mode.
	queues  queuesView     // proposals by kind (modeQueue)
	control controlView    // the control sample (modeControl)
	hist    historyView    // the batch history (modeHistory)
	batch   batchView      // the batch enter opened in the history (modeBatch)
	held    heldView       // the review queue: captures held as needs_review (modeHeld)
	sup     supersededView // the supersession links since the last review (modeSuperseded)
	dlg     *dialog
	erase   *eraseView // the erase request by subject (E), over every view while open

	// filter is the "/" filter of the queues, the history and the
	// superseded links: one bar, parsed for the view it shows over.
	filter filterBar
	// rejects are the rejection batches of this session, newest last:
	// u in a queue rolls back the newest.
	rejects []string

	seq           int
	loading       bool
	loaded        bool
	writes        int
	width, height int
	status, err   string
	loadErr       string
	// focus is a proposal to put the cursor on at the next load: the one
	// that stopped a P (curate.BlockingProposal), or the next one after !
	// applied the one above it; 0 for none.
	focus int64
}

func newCuratePane(c *common) curatePane {
	k := defaultCurateKeys()
	return curatePane{c: c, keys: k, filter: newFilterBar(c, curateQueueQuery(nil, nil).hint()),
		queues: newQueuesView(c, k), control: newControlView(c), hist: newHistoryView(c), batch: newBatchView(c),
		held: newHeldView(c), sup: newSupersededView(c)}
}

func (p curatePane) ID() paneID    { return paneCurate }
func (p curatePane) Title() string { return "Curate" }
func (p curatePane) Typing() bool  { return p.dlg != nil || p.filter.input.Focused() || p.erase != nil }
func (p curatePane) Busy() bool    { return p.loading || p.writes > 0 }

func (p curatePane) SetSize(w, h int) pane {
	p.width, p.height = w, h
	return p
}

func (p curatePane) KeyBindings() []key.Binding {
	k := p.keys
	if p.erase != nil {
		return p.eraseKeyBindings()
	}
	if p.dlg != nil {
		switch p.dlg.kind {
		case "retype", "store":
			return []key.Binding{k.Up, k.Down, k.Confirm, k.Cancel}
		case "wording":
			return []key.Binding{k.ApproveWording, k.CancelWording, editorKey()}
		case "reject":
			return []key.Binding{k.RejectReason, k.CancelWording, editorKey()}
		case "rollback-force":
			// Only a capital Y forces the rollback (forceKey).
			return []key.Binding{k.Force, k.Cancel}
		}
		return []key.Binding{k.Confirm, k.Cancel}
	}
	if p.filter.input.Focused() {
		return []key.Binding{k.filter.Done, k.filter.Clear}
	}
	l := curateListKeys()
	move := []key.Binding{k.Up, k.Down, l.PageUp, l.PageDown, l.Top, l.Bottom}
	var filter []key.Binding
	if p.filterable() {
		filter = []key.Binding{k.filter.Filter}
		if p.filter.input.Value() != "" {
			filter = append(filter, k.filter.ClearSet)
		}
	}
	switch p.mode {
	case modeControl:
		return p.control.keyBindings(k)
	case modeHistory:
		return p.leaveUnlessFiltered(p.hist.keyBindings(k, filter, move))
	case modeBatch:
		return p.batch.keyBindings(k, move)
	case modeHeld:
		return p.held.keyBindings(k)
	case modeSuperseded:
		return p.leaveUnlessFiltered(p.sup.keyBindings(k, filter, move))
	}
	return append(p.queues.keyBindings(len(p.rejects) > 0, filter, listMoves(len(p.queues.list.rows), move...)), eraseKey)
}

// leaveUnlessFiltered drops esc's "back to queues" while a filter is set:
// esc clears the filter first.
func (p curatePane) leaveUnlessFiltered(bs []key.Binding) []key.Binding {
	if p.filter.input.Value() == "" {
		return bs
	}
	return slices.DeleteFunc(bs, func(b key.Binding) bool { return b.Help() == p.keys.Leave.Help() })
}

// listMoves are a list's movement keys for the footer: only when it has
// two rows to move between, so that the footer never offers a key that
// does nothing.
func listMoves(n int, ks ...key.Binding) []key.Binding {
	if n < 2 {
		return nil
	}
	return ks
}

func (p curatePane) Update(msg tea.Msg) (pane, tea.Cmd) {
	p, cmd := p.update(msg)
	return p, cmd
}

func (p curatePane) update(msg tea.Msg) (curatePane, tea.Cmd) {
	p = p.sized()
	if p.erase != nil {
		if q, cmd, used := p.eraseUpdate(msg); used {
			return q, cmd
		}
	}
	switch msg := msg.(type) {
	case startMsg:
		return p.reload()
	case curateLoadedMsg:
		if msg.Seq != p.seq {
			return p, nil
		}
		p.loading = false
		if msg.Err != nil {
			p.loadErr = "load proposals: " + engine.ErrorMessage(msg.Err)
			return p, nil
		}
		first := !p.loaded
		// A write's error stays on screen through the reload that follows
		// it; only a load error is cleared by a load that works.
		p.loaded, p.loadErr = true, ""
		p.queues = p.queues.setProps(msg.Props, msg.Memories)
		p.queues.held, p.queues.links = len(msg.Held), len(msg.Links.Links)
		p.control = p.control.setProps(msg.Props, msg.Memories)
		p.hist.list = p.hist.list.setRows(msg.Batches)
		p.sup = p.sup.setLinks(msg.Links)
		p.held.list = p.held.list.setRows(msg.Held)
		p.rejects = stillRejected(p.rejects, p.hist.batches())
		if first {
			// The control sample comes first: the curator judges it blind
			// before seeing any verdict.
			if p.control.pending() {
				p.mode = modeControl
			} else {
				p.mode = modeQueue
			}
			p.queues = p.queues.setKind(p.queues.firstNonEmpty())
		}
		for _, b := range p.hist.batches() {
			if b.Batch == p.batch.info.Batch {
				p.batch.info = b
			}
		}
		p.queues.list = p.queues.list.clampCursor()
		if p.focus != 0 {
			if q, ok := p.queues.focus(p.focus); ok {
				p.queues, p.mode = q, modeQueue
			}
			p.focus = 0
		}
		p.control.list = p.control.list.clampCursor()
		p.hist.list = p.hist.list.clampCursor()
		p.held.list = p.held.list.clampCursor()
		p.sup.list = p.sup.list.clampCursor()
		return p, nil
	case curateDoneMsg:
		p.writes--
		if msg.Err != nil {
			p.err = engine.ErrorMessage(msg.Err)
			p.status = ""
			if id, ok := curate.BlockingProposal(msg.Err); ok {
				// Take the curator to the proposal in the way, and say
				// what gets it out of the way.
				p.focus = id
				p.err += fmt.Sprintf(" — the cursor is on proposal %d: x rejects it, t retypes it", id)
			}
			return p.reload()
		}
		p.err, p.status = "", msg.What
		p.noteRejects(msg)
		p, cmd := p.reload()
		return p, tea.Batch(cmd, storeChanged(paneCurate))
	case storeChangedMsg:
		return p.reload()
	case rollbackPlanMsg:
		return p.planned(msg)
	case batchChangesMsg:
		return p.changesLoaded(msg), nil
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		if p.dlg == nil {
			p, _ = p.updateView(msg)
		}
		return p, nil
	case editedMsg:
		return p.edited(msg), nil
	case restyleMsg:
		if p.dlg != nil && (p.dlg.kind == "wording" || p.dlg.kind == "reject") {
			d := *p.dlg
			d.input.SetStyles(p.c.styles.Input)
			p.dlg = &d
		}
		p.filter.input.SetStyles(p.c.styles.Input)
		return p, nil
	case tea.KeyPressMsg:
		if p.dlg != nil {
			return p.dialogKey(msg)
		}
		if p.filter.input.Focused() {
			return p.filterKey(msg)
		}
		return p.handleKey(msg)
	}
	if p.filter.input.Focused() {
		return p, updateFocused(&p.filter.input, msg)
	}
	if p.dlg != nil && (p.dlg.kind == "wording" || p.dlg.kind == "reject") {
		// The editor's cursor blink.
		d := *p.dlg
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		p.dlg = &d
		return p, cmd
	}
	return p, nil
}
