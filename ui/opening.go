package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"memtrace/internal/safetext"
)

// Opening: the UI's first frame before the engine exists.
//
// Opening a database reads every memory and rebuilds the indexes: a blink
// for the demo, half a second or more at 100k memories. RunOpening draws a
// frame at once — what it is opening, a spinner, the seconds so far — while
// the engine opens in a command, then hands the terminal to the UI.

// Opener opens what the UI runs on. It is called once, off the UI's
// goroutine, with the program's context.
type Opener func(ctx context.Context) (Deps, error)

// RunOpening runs the UI full screen until the user quits or ctx ends, with
// the dependencies opened while the first frame is already on screen.
// label names what is being opened (a path). NO_COLOR in the environment
// sets Deps.NoColor. It returns
// the opener's error, if any, after the terminal is restored; quitting
// before the open finishes returns nil.
func RunOpening(ctx context.Context, label string, open Opener) error {
	noColor := os.Getenv("NO_COLOR") != ""
	p := tea.NewProgram(newOpening(ctx, label, noColor, open), tea.WithContext(ctx))
	final, err := p.Run()
	if o, ok := final.(opening); ok && o.ui != nil {
		if cerr := o.ui.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return err
	}
	if o, ok := final.(opening); ok && o.err != nil {
		return o.err
	}
	return nil
}

// opening is the root model until the engine is open, and then a shell
// that passes everything to the UI's Model.
type opening struct {
	ctx     context.Context
	label   string
	noColor bool
	open    Opener
	started time.Time
	spin    spinner.Model

	size *tea.WindowSizeMsg      // the last size, for the UI when it starts
	bg   *tea.BackgroundColorMsg // the terminal's background, likewise
	err  error                   // the opener's failure

	ui *Model // the UI, once the engine is open
}

// openedMsg carries the opener's result.
type openedMsg struct {
	deps Deps
	err  error
}

func newOpening(ctx context.Context, label string, noColor bool, open Opener) opening {
	return opening{ctx: ctx, label: label, noColor: noColor, open: open, started: time.Now(),
		spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

func (o opening) Init() tea.Cmd {
	run := func() tea.Msg {
		deps, err := o.open(o.ctx)
		return openedMsg{deps: deps, err: err}
	}
	return tea.Batch(tea.RequestBackgroundColor, o.spin.Tick, run)
}

func (o opening) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if o.ui != nil {
		m, cmd := o.ui.Update(msg)
		ui := m.(Model)
		o.ui = &ui
		return o, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		o.size = &msg
	case tea.BackgroundColorMsg:
		o.bg = &msg
	case tea.KeyPressMsg:
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			return o, tea.Quit
		}
	case spinner.TickMsg:
		var cmd tea.Cmd
		o.spin, cmd = o.spin.Update(msg)
		return o, cmd
	case openedMsg:
		if msg.err != nil {
			o.err = msg.err
			return o, tea.Quit
		}
		deps := msg.deps
		deps.NoColor = deps.NoColor || o.noColor
		ui := newModel(o.ctx, deps)
		cmds := []tea.Cmd{ui.Init()}
		// The UI missed what the terminal told the opening frame.
		for _, early := range []tea.Msg{o.bg, o.size} {
			switch early := early.(type) {
			case *tea.BackgroundColorMsg:
				if early != nil {
					m, cmd := ui.Update(*early)
					ui = m.(Model)
					cmds = append(cmds, cmd)
				}
			case *tea.WindowSizeMsg:
				if early != nil {
					m, cmd := ui.Update(*early)
					ui = m.(Model)
					cmds = append(cmds, cmd)
				}
			}
		}
		o.ui = &ui
		return o, tea.Batch(cmds...)
	}
	return o, nil
}

func (o opening) View() tea.View {
	if o.ui != nil {
		return o.ui.View()
	}
	st := NewStyles(o.bg == nil || o.bg.IsDark(), o.noColor)
	w, h := 80, 24
	if o.size != nil {
		w, h = o.size.Width, o.size.Height
	}
	secs := time.Since(o.started).Seconds()
	box := st.App.Title.Render("memtrace") + "\n\n" +
		o.spin.View() + " opening " + safetext.Truncate(safetext.SanitizeLine(o.label), max(10, w-20)) + "\n" +
		st.App.Muted.Render(fmt.Sprintf("reading every memory and building the indexes · %.1f s · q quits", secs))
	v := tea.NewView(lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box))
	v.AltScreen = true
	v.WindowTitle = "memtrace"
	return v
}
