package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// filterField is one field:value word a list's filter knows. Values are
// the values it accepts (nil: any non-empty value, e.g. an actor name);
// Match reports whether a row has the value. Known, when set, lists the
// values the rows have now (free-form ones, like a judge's flags): a value
// that is part of none of them is reported with them.
type filterField[T any] struct {
	Name   string
	Values []string
	Match  func(row T, value string) bool
	Known  func() []string
}

// knownProblem is what a value of a field with Known values says when it
// is part of none of them ("" when it is).
func (f filterField[T]) knownProblem(value string) string {
	if f.Known == nil {
		return ""
	}
	known := f.Known()
	for _, k := range known {
		if strings.Contains(strings.ToLower(k), value) {
			return ""
		}
	}
	if len(known) == 0 {
		return fmt.Sprintf("unknown %s %s: no proposal here has a %s", f.Name, value, f.Name)
	}
	return fmt.Sprintf("unknown %s %s: use %s", f.Name, value, strings.Join(known, ", "))
}

// rowQuery is a list's filter grammar: "status:pending 충주 사과" —
// field:value words select by field, the other words are a
// case-insensitive substring of the row's text (as in the Memories filter).
type rowQuery[T any] struct {
	Fields []filterField[T]
	Text   func(row T) string
}

// parse reads s into a predicate and says what it could not use: an
// unknown field ("stat:") or a value the field cannot have. Such a word is
// left out of the filter and reported, instead of matching nothing.
func (q rowQuery[T]) parse(s string) (func(T) bool, string) {
	type want struct {
		f     filterField[T]
		value string
	}
	var wants []want
	var words, problems []string
	for _, w := range strings.Fields(s) {
		name, value, ok := strings.Cut(w, ":")
		if !ok || !isFieldName(name) {
			words = append(words, strings.ToLower(w))
			continue
		}
		f, known := q.field(name)
		if !known {
			problems = append(problems, fmt.Sprintf("unknown field %s: use %s", name, q.fieldNames()))
			continue
		}
		value = strings.ToLower(strings.TrimSpace(value))
		if value == "" {
			problems = append(problems, fmt.Sprintf("%s: needs a value", f.Name))
			continue
		}
		if f.Values != nil && !contains(f.Values, value) {
			problems = append(problems, fmt.Sprintf("unknown %s %s: use %s", f.Name, value, strings.Join(f.Values, ", ")))
			continue
		}
		if pr := f.knownProblem(value); pr != "" {
			problems = append(problems, pr)
			continue
		}
		wants = append(wants, want{f, value})
	}
	phrase := strings.Join(words, " ")
	match := func(row T) bool {
		for _, w := range wants {
			if !w.f.Match(row, w.value) {
				return false
			}
		}
		return phrase == "" || strings.Contains(strings.ToLower(q.Text(row)), phrase)
	}
	return match, strings.Join(problems, " · ")
}

func (q rowQuery[T]) field(name string) (filterField[T], bool) {
	for _, f := range q.Fields {
		if strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return filterField[T]{}, false
}

func (q rowQuery[T]) fieldNames() string {
	names := make([]string, len(q.Fields))
	for i, f := range q.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// hint is the filter bar's placeholder: the fields with an example value.
func (q rowQuery[T]) hint() string {
	parts := make([]string, 0, len(q.Fields)+1)
	for _, f := range q.Fields {
		v := "…"
		if len(f.Values) > 0 {
			v = f.Values[0]
		}
		parts = append(parts, f.Name+":"+v)
	}
	return strings.Join(append(parts, "text…"), " ")
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

// filterBar is the "/" filter of a list that holds its rows: typing
// filters at once (the rows are in memory), enter keeps the filter, esc
// clears it — in the bar and, outside it, when a filter is set.
type filterBar struct {
	input   textinput.Model
	problem string // what the filter could not use, shown inline
}

func newFilterBar(c *common, placeholder string) filterBar {
	return filterBar{input: newTextInput(c, "/ ", placeholder)}
}

// filterKeys are the keys of a list filter, for the footer.
type filterKeys struct {
	Filter, Done, Clear, ClearSet key.Binding
}

func defaultFilterKeys() filterKeys {
	return filterKeys{
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Done:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Clear:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		ClearSet: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}

// active: the bar has the keys or a filter is set; the list shows the bar.
func (f filterBar) active() bool { return f.input.Focused() || f.input.Value() != "" }

// key handles a key while the bar has the focus: enter leaves it with the
// filter kept, esc clears it and leaves; other keys edit. It reports
// whether the filter text changed.
func (f *filterBar) key(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	switch msg.String() {
	case "enter":
		f.input.Blur()
		return false, nil
	case "esc":
		changed := f.input.Value() != ""
		f.input.SetValue("")
		f.input.Blur()
		f.problem = ""
		return changed, nil
	}
	before := f.input.Value()
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return f.input.Value() != before, cmd
}

// clear empties a set filter (esc outside the bar) and reports whether
// there was one.
func (f *filterBar) clear() bool {
	if f.input.Value() == "" {
		return false
	}
	f.input.SetValue("")
	f.problem = ""
	return true
}

// view is the bar's line: the input, then what it could not use.
func (f filterBar) view(c *common, width int) string {
	st := c.styles
	line := f.input.View()
	if f.problem != "" {
		line = f.input.View() + "  " + st.App.Error.Render(f.problem)
	}
	return clipLines(line, max(1, width))
}
