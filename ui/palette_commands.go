package ui

// The palette's one registry of commands: completion, :help and the README
// table all come from paletteCommands, and the tabs' actions come from the
// tabs' own key bindings (what their footer offers now), so neither can
// drift from what the keys do.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// paletteCommand is one ":" command.
type paletteCommand struct {
	Name    string
	Aliases []string
	Args    string // the arguments' usage; "" takes none
	Help    string
	// Complete lists the completions of the argument text typed so far
	// (whole argument strings, filtered by prefix by the caller).
	Complete func(m Model, arg string) []paletteCandidate
	Run      func(m Model, arg string) (Model, tea.Cmd, error)
}

// paletteCommands is the registry, in the order :help lists it.
func paletteCommands() []paletteCommand {
	cmds := []paletteCommand{
		{Name: "recall", Args: "QUERY [@TIME]", Help: "open Trace on QUERY recalled at TIME (now, +30d, -2h, 2027-01-01)",
			Complete: completeRecall, Run: runRecall},
		{Name: "memory", Args: "ID|KEY", Help: "show memory ID (or KEY) in Memories with its detail",
			Complete: completeMemory, Run: runMemory},
		{Name: "batch", Args: "BATCH", Help: "show a batch in Curate's batch history",
			Complete: completeBatch, Run: runBatch},
		{Name: "filter", Args: "FILTER", Help: "filter Memories: status:… type:… kind:… tier:… key:… text",
			Complete: completeFilter, Run: runFilter},
		{Name: "queue", Args: "KIND", Help: "show a Curate queue (archive, promote, review…)",
			Complete: completeQueue, Run: runQueue},
		{Name: "copy", Args: "prompt|trace|memory", Help: "copy the prompt, the trace JSON or the selected memory (OSC 52)",
			Complete: completeCopy, Run: runCopy},
		{Name: "tab", Args: "NAME|1-5", Help: "go to a tab", Complete: completeTab, Run: runTab},
	}
	for _, id := range []paneID{paneTrace, paneGolden, paneCurate, paneMemories, paneCaptures} {
		cmds = append(cmds, tabCommand(id))
	}
	return append(cmds,
		paletteCommand{Name: "help", Help: "every key of this tab and every command",
			Run: func(m Model, _ string) (Model, tea.Cmd, error) { m.showHelp = true; return m, nil, nil }},
		paletteCommand{Name: "quit", Aliases: []string{"q"}, Help: "quit memtrace",
			Run: func(m Model, _ string) (Model, tea.Cmd, error) { return m, tea.Quit, nil }},
	)
}

// tabCommand is ":trace", ":golden" …: go to the tab, and with an ACTION
// do what the tab's key for it does (its footer names the actions).
func tabCommand(id paneID) paletteCommand {
	name := string(id)
	return paletteCommand{
		Name: name, Args: "[ACTION]", Help: "go to " + tabTitle(id) + "; ACTION: what one of its keys does (tab lists them)",
		Complete: func(m Model, _ string) []paletteCandidate {
			i := m.paneIndex(id)
			if i < 0 {
				return nil
			}
			var out []paletteCandidate
			for _, a := range paneActions(m.panes[i]) {
				out = append(out, paletteCandidate{Text: a.Name, Help: a.Help + " (" + a.KeyHelp + ")"})
			}
			return out
		},
		Run: func(m Model, arg string) (Model, tea.Cmd, error) {
			i := m.paneIndex(id)
			if i < 0 {
				return m, nil, fmt.Errorf("no %s tab", name)
			}
			if arg == "" {
				m.active = i
				return m, nil, nil
			}
			acts := paneActions(m.panes[i])
			names := make([]string, len(acts))
			for j, a := range acts {
				names[j] = a.Name
			}
			j, err := pickName(names, arg)
			if err != nil {
				return m, nil, fmt.Errorf("%s: %w (:%s tab lists what the tab can do now)", name, err, name)
			}
			m.active = i
			cmd := m.updateActive(acts[j].Press)
			return m, cmd, nil
		},
	}
}

func tabTitle(id paneID) string {
	if id == "" {
		return ""
	}
	return strings.ToUpper(string(id[:1])) + string(id[1:])
}

func (m Model) paneIndex(id paneID) int {
	for i, p := range m.panes {
		if p.ID() == id {
			return i
		}
	}
	return -1
}

// paneAction is one key of a pane as a palette action.
type paneAction struct {
	Name, Help, KeyHelp string
	Press               tea.KeyPressMsg
}

// paneActions are the pane's keys as its footer offers them now, named by
// their help text ("run all" → run-all), without the moves of a list (a
// palette does not scroll).
func paneActions(p pane) []paneAction {
	moves := map[string]bool{"up": true, "down": true, "page up": true, "page down": true, "first": true, "last": true,
		"scroll up": true, "scroll down": true}
	seen := map[string]bool{}
	var out []paneAction
	for _, b := range p.KeyBindings() {
		h := b.Help()
		if len(b.Keys()) == 0 || moves[h.Desc] {
			continue
		}
		name := slug(h.Desc)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, paneAction{Name: name, Help: h.Desc, KeyHelp: h.Key, Press: keyPress(b.Keys()[0])})
	}
	return out
}

// slug is help text as a command word: lower case, letters and digits
// (Korean too), words joined by "-". A sign is a word of its own ("plus",
// "minus": a '+', '−' or '-' that starts a number), so "importance +0.1"
// and "importance −0.1" stay two commands ("now vs +N" stays now-vs-n).
func slug(s string) string {
	var b strings.Builder
	dash := false
	word := func(w string) {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
		dash = true
	}
	rs := []rune(strings.ToLower(s))
	for i, r := range rs {
		number := i+1 < len(rs) && (rs[i+1] >= '0' && rs[i+1] <= '9' || rs[i+1] == '.') && (i == 0 || rs[i-1] == ' ')
		switch {
		case number && r == '+':
			word("plus")
			continue
		case number && (r == '−' || r == '-'):
			word("minus")
			continue
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0xAC00 && r <= 0xD7A3 {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// keyPress is the key press a binding's key string names.
func keyPress(s string) tea.KeyPressMsg {
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete}
	if r, ok := named[s]; ok {
		return tea.KeyPressMsg{Code: r}
	}
	if s == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	if rest, ok := strings.CutPrefix(s, "ctrl+"); ok && len([]rune(rest)) == 1 {
		return tea.KeyPressMsg{Code: []rune(rest)[0], Mod: tea.ModCtrl}
	}
	if rest, ok := strings.CutPrefix(s, "shift+"); ok {
		k := keyPress(rest)
		k.Mod |= tea.ModShift
		return k
	}
	r := []rune(s)
	if len(r) == 0 {
		return tea.KeyPressMsg{}
	}
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// pickName finds arg among names: exactly, or as the start of one name.
// An arg that names none is an ENOTFOUND error, one that starts several
// an EINVALID one, so callers tell them apart by code, not by wording.
func pickName(names []string, arg string) (int, error) {
	arg = strings.ToLower(strings.TrimSpace(arg))
	var hits []int
	for i, n := range names {
		if n == arg {
			return i, nil
		}
		if strings.HasPrefix(n, arg) {
			hits = append(hits, i)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return -1, engine.Errorf(engine.ENOTFOUND, "no %q here: use one of %s", arg, strings.Join(names, ", "))
	}
	var amb []string
	for _, i := range hits {
		amb = append(amb, names[i])
	}
	return -1, engine.Errorf(engine.EINVALID, "%q could be %s: type more of it", arg, strings.Join(amb, " or "))
}

// findCommand is the command a word names: its name or alias, or the
// start of exactly one name.
func findCommand(word string) (paletteCommand, error) {
	cmds := paletteCommands()
	word = strings.ToLower(word)
	var names []string
	for _, c := range cmds {
		if c.Name == word {
			return c, nil
		}
		for _, a := range c.Aliases {
			if a == word {
				return c, nil
			}
		}
		names = append(names, c.Name)
	}
	i, err := pickName(names, word)
	if err != nil {
		if engine.ErrorCode(err) == engine.ENOTFOUND {
			return paletteCommand{}, engine.Errorf(engine.ENOTFOUND, "unknown command :%s — tab lists the commands, :help shows what each does", word)
		}
		return paletteCommand{}, err
	}
	return cmds[i], nil
}

// runCommand runs one palette line ("recall 충주 사과 @+30d").
func (m Model) runCommand(line string) (Model, tea.Cmd, error) {
	word, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	c, err := findCommand(word)
	if err != nil {
		return m, nil, err
	}
	arg = strings.TrimSpace(arg)
	if arg != "" && c.Args == "" {
		return m, nil, fmt.Errorf(":%s takes no arguments", c.Name)
	}
	return c.Run(m, arg)
}

// completions of the whole input text: command names while the first word
// is typed, then the command's own argument completions.
func (m Model) completions(text string) []paletteCandidate {
	text = strings.TrimLeft(text, " :")
	word, arg, spaced := strings.Cut(text, " ")
	if !spaced {
		var out []paletteCandidate
		for _, c := range paletteCommands() {
			names := append([]string{c.Name}, c.Aliases...)
			for _, n := range names {
				if strings.HasPrefix(n, strings.ToLower(word)) {
					t := n
					if c.Args != "" {
						t += " "
					}
					out = append(out, paletteCandidate{Text: t, Help: strings.TrimSpace(c.Args + "  " + c.Help)})
					break
				}
			}
		}
		return out
	}
	c, err := findCommand(word)
	if err != nil || c.Complete == nil {
		return nil
	}
	var out []paletteCandidate
	for _, a := range c.Complete(m, arg) {
		if strings.HasPrefix(strings.ToLower(a.Text), strings.ToLower(arg)) && a.Text != arg {
			out = append(out, paletteCandidate{Text: c.Name + " " + a.Text, Help: a.Help})
		}
	}
	return out
}
