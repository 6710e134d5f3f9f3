package ui

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"memtrace/engine"
)

// Each palette command's completion and run: recall, memory, batch, filter, queue, tab and copy.

func completeRecall(m Model, arg string) []paletteCandidate {
	words := strings.Fields(arg)
	if len(words) == 0 || strings.HasSuffix(arg, " ") && !strings.HasSuffix(strings.TrimSpace(arg), "@") {
		if len(words) > 0 && !strings.Contains(arg, "@") {
			prefix := strings.TrimRight(arg, " ")
			return []paletteCandidate{{Text: prefix + " @", Help: "add a time: @+30d, @2027-01-01"}}
		}
		return nil
	}
	last := words[len(words)-1]
	if !strings.HasPrefix(last, "@") {
		return nil
	}
	prefix := strings.TrimSuffix(arg, last)
	var out []paletteCandidate
	// The times it completes after "@" are the Trace tab's steps.
	for _, st := range engine.TimeSteps() {
		out = append(out, paletteCandidate{Text: prefix + "@" + st.Label, Help: "recall at " + st.Label})
	}
	return out
}

// parseRecall splits ":recall 충주 사과 @+30d" into the query and the time
// (the last word starting with "@"; "@ +30d" works too).
func parseRecall(arg string) (text, at string) {
	words := strings.Fields(arg)
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if !strings.HasPrefix(w, "@") {
			continue
		}
		at = strings.TrimPrefix(w, "@")
		rest := words[i+1:]
		if at == "" && len(rest) > 0 {
			at, rest = rest[0], rest[1:]
		}
		words = append(append([]string(nil), words[:i]...), rest...)
		break
	}
	return strings.Join(words, " "), at
}

func runRecall(m Model, arg string) (Model, tea.Cmd, error) {
	text, at := parseRecall(arg)
	if text == "" {
		return m, nil, errors.New("recall needs a query: :recall 충주 사과 @+30d")
	}
	q := engine.Query{Text: text}
	if at != "" {
		t, err := engine.ParseAt(at, m.c.now())
		if err != nil {
			return m, nil, fmt.Errorf("recall: %s", engine.ErrorMessage(err))
		}
		q.At = t
	}
	return m, func() tea.Msg { return OpenTraceMsg{Query: q} }, nil
}

func completeMemory(m Model, _ string) []paletteCandidate {
	var out []paletteCandidate
	mp, ok := paneOf[memoriesPane](m)
	if !ok {
		return nil
	}
	if mem, ok := mp.list.selected(); ok {
		out = append(out, paletteCandidate{Text: fmt.Sprint(mem.ID), Help: "the selected memory"})
		if mem.Key != "" {
			out = append(out, paletteCandidate{Text: mem.Key, Help: "the selected memory's key"})
		}
	}
	return out
}

func runMemory(m Model, arg string) (Model, tea.Cmd, error) {
	if arg == "" {
		return m, nil, errors.New("memory needs an id or a key: :memory 42 or :memory m0075")
	}
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil {
		k := arg
		return m, func() tea.Msg { return OpenMemoryMsg{Key: k} }, nil
	}
	ctx, store := m.c.ctx, m.c.deps.Store
	return m, func() tea.Msg {
		mem, err := store.GetMemory(ctx, id)
		switch {
		case err != nil:
			return noticeMsg{Err: true, Text: fmt.Sprintf("memory %d: %s", id, engine.ErrorMessage(err))}
		case mem.Key == "":
			return noticeMsg{Err: true, Text: fmt.Sprintf("memory %d has no key, so the Memories filter cannot pick it alone: filter by its text (/)", id)}
		}
		return OpenMemoryMsg{Key: mem.Key}
	}, nil
}

func completeBatch(m Model, _ string) []paletteCandidate {
	cp, ok := paneOf[curatePane](m)
	if !ok {
		return nil
	}
	var out []paletteCandidate
	for _, b := range cp.hist.batches() { // newest first, as the history lists them
		out = append(out, paletteCandidate{Text: b.Batch, Help: fmt.Sprintf("%s · %s · %d rows", b.At.UTC().Format("2006-01-02 15:04"), b.Actor, b.Rows)})
	}
	return out
}

func runBatch(m Model, arg string) (Model, tea.Cmd, error) {
	i := m.paneIndex(paneCurate)
	if i < 0 {
		return m, nil, errors.New("no Curate tab")
	}
	cp := m.panes[i].(curatePane)
	if arg == "" {
		return m, nil, errors.New("batch needs a batch id: :batch <tab> lists them")
	}
	batches := cp.hist.batches()
	names := make([]string, len(batches))
	for j, b := range batches {
		names[j] = strings.ToLower(b.Batch)
	}
	j, err := pickName(names, arg)
	if err != nil {
		if len(names) == 0 {
			return m, nil, errors.New("the batch history is empty (or still loading): nothing was applied yet")
		}
		if engine.ErrorCode(err) != engine.ENOTFOUND {
			return m, nil, fmt.Errorf("batch: %w", err) // a prefix of several batches
		}
		return m, nil, fmt.Errorf("batch: no batch %q in the history: :batch <tab> lists them", arg)
	}
	cp = cp.enterMode(modeHistory)
	cp.hist.list = cp.hist.list.moveTo(j)
	m.panes[i], m.active = cp, i
	return m, nil, nil
}

func completeFilter(m Model, arg string) []paletteCandidate {
	words := strings.Fields(arg)
	prefix := ""
	if len(words) > 0 && !strings.HasSuffix(arg, " ") {
		prefix = strings.TrimSuffix(arg, words[len(words)-1])
	} else {
		prefix = arg
	}
	var out []paletteCandidate
	for _, f := range []string{"status:active", "status:quarantined", "status:archived", "status:superseded", "kind:fact", "kind:episode",
		"tier:hot", "tier:warm", "tier:cold", "type:", "key:"} {
		out = append(out, paletteCandidate{Text: prefix + f, Help: "Memories filter field"})
	}
	return out
}

func runFilter(m Model, arg string) (Model, tea.Cmd, error) {
	i := m.paneIndex(paneMemories)
	if i < 0 {
		return m, nil, errors.New("no Memories tab")
	}
	if _, problem := memoryQueryCheck(arg); problem != "" {
		return m, nil, errors.New("filter: " + problem)
	}
	mp := m.panes[i].(memoriesPane)
	mp.input.SetValue(arg)
	mp, cmd := mp.runFilter()
	m.panes[i], m.active = mp, i
	return m, cmd, nil
}

func completeQueue(Model, string) []paletteCandidate {
	var out []paletteCandidate
	for _, k := range curateKinds() {
		out = append(out, paletteCandidate{Text: k, Help: "Curate queue"})
	}
	return out
}

func runQueue(m Model, arg string) (Model, tea.Cmd, error) {
	i := m.paneIndex(paneCurate)
	if i < 0 {
		return m, nil, errors.New("no Curate tab")
	}
	j, err := pickName(curateKinds(), arg)
	if err != nil {
		return m, nil, fmt.Errorf("queue: %w", err)
	}
	cp := m.panes[i].(curatePane)
	cp = cp.enterMode(modeQueue)
	cp.queues = cp.queues.setKind(j)
	m.panes[i], m.active = cp, i
	return m, nil, nil
}

func completeTab(m Model, _ string) []paletteCandidate {
	var out []paletteCandidate
	for i, p := range m.panes {
		out = append(out, paletteCandidate{Text: string(p.ID()), Help: fmt.Sprintf("tab %d", i+1)})
	}
	return out
}

func runTab(m Model, arg string) (Model, tea.Cmd, error) {
	if n, err := strconv.Atoi(arg); err == nil {
		if n < 1 || n > len(m.panes) {
			return m, nil, fmt.Errorf("tab: %d is not a tab: use 1-%d", n, len(m.panes))
		}
		m.active = n - 1
		return m, nil, nil
	}
	names := make([]string, len(m.panes))
	for i, p := range m.panes {
		names[i] = string(p.ID())
	}
	i, err := pickName(names, arg)
	if err != nil {
		return m, nil, fmt.Errorf("tab: %w", err)
	}
	m.active = i
	return m, nil, nil
}

func completeCopy(m Model, _ string) []paletteCandidate {
	var out []paletteCandidate
	for _, t := range m.copyTargetsAll() {
		out = append(out, paletteCandidate{Text: t.Name, Help: t.Binding.Help().Desc + " (" + tabTitle(t.From) + ")"})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

func runCopy(m Model, arg string) (Model, tea.Cmd, error) {
	targets := m.copyTargetsAll()
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Name
	}
	if len(targets) == 0 {
		return m, nil, errors.New("copy: nothing to copy yet: run a recall (:recall …) or select a memory")
	}
	if arg == "" {
		return m, nil, fmt.Errorf("copy what? %s", strings.Join(names, ", "))
	}
	i, err := pickName(names, arg)
	if err != nil {
		return m, nil, fmt.Errorf("copy: %w", err)
	}
	return m, copyCmd(targets[i]), nil
}

// paneOf is the root's pane of type P.
func paneOf[P pane](m Model) (P, bool) {
	for _, p := range m.panes {
		if v, ok := p.(P); ok {
			return v, true
		}
	}
	var zero P
	return zero, false
}
