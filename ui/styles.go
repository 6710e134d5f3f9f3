package ui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// palette is the small set of semantic colours every style is built from.
// With NO_COLOR every entry is lipgloss.NoColor and emphasis falls back to
// bold, underline and reverse video.
type palette struct {
	Fg, Muted, Subtle, Accent, AccentFg, Good, Warn, Bad, Border color.Color
}

func newPalette(isDark, noColor bool) palette {
	if noColor {
		n := lipgloss.NoColor{}
		return palette{n, n, n, n, n, n, n, n, n}
	}
	ld := lipgloss.LightDark(isDark)
	return palette{
		Fg:       ld(lipgloss.Color("#1F1F1F"), lipgloss.Color("#E4E4E4")),
		Muted:    ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#9A9A9A")),
		Subtle:   ld(lipgloss.Color("#DCDCDC"), lipgloss.Color("#3A3A3A")),
		Accent:   ld(lipgloss.Color("#5A3FD1"), lipgloss.Color("#9D8CFF")),
		AccentFg: ld(lipgloss.Color("#FFFFFF"), lipgloss.Color("#14102B")),
		Good:     ld(lipgloss.Color("#1C7C3A"), lipgloss.Color("#6BD68A")),
		Warn:     ld(lipgloss.Color("#A15C00"), lipgloss.Color("#F2B85B")),
		Bad:      ld(lipgloss.Color("#B3261E"), lipgloss.Color("#FF7A70")),
		Border:   ld(lipgloss.Color("#BDBDBD"), lipgloss.Color("#4A4A4A")),
	}
}

// Styles is every style the UI draws with, grouped by where it is used. No
// pane holds a colour literal; they all read this.
type Styles struct {
	NoColor bool

	App struct {
		Error, Status, Muted, Title lipgloss.Style
	}
	Tabs struct {
		Active, Inactive, Gap lipgloss.Style
	}
	Table struct {
		Header, Row, Selected, Muted lipgloss.Style
	}
	Status struct {
		Active, Quarantined, Archived lipgloss.Style
	}
	Detail struct {
		Label, Value, Heading, Box lipgloss.Style
	}
	Filter struct {
		Label, Chip lipgloss.Style
	}
	Help    help.Styles
	Input   textinput.Styles
	Spinner lipgloss.Style
	Overlay lipgloss.Style
}

// NewStyles builds the styles for a light or dark background; noColor (the
// NO_COLOR convention) removes every colour.
func NewStyles(isDark, noColor bool) Styles {
	p := newPalette(isDark, noColor)
	plain := lipgloss.NewStyle()
	var s Styles
	s.NoColor = noColor

	s.App.Error = plain.Foreground(p.Bad).Bold(true)
	s.App.Status = plain.Foreground(p.Muted)
	s.App.Muted = plain.Foreground(p.Muted)
	s.App.Title = plain.Foreground(p.Accent).Bold(true)

	s.Tabs.Active = plain.Foreground(p.AccentFg).Background(p.Accent).Bold(true).Padding(0, 1)
	s.Tabs.Inactive = plain.Foreground(p.Muted).Padding(0, 1)
	s.Tabs.Gap = plain.Foreground(p.Border)
	if noColor {
		s.Tabs.Active = s.Tabs.Active.Reverse(true)
	}

	s.Table.Header = plain.Foreground(p.Muted).Bold(true).Underline(true)
	s.Table.Row = plain.Foreground(p.Fg)
	s.Table.Selected = plain.Foreground(p.AccentFg).Background(p.Accent)
	if noColor {
		s.Table.Selected = plain.Reverse(true)
	}
	s.Table.Muted = plain.Foreground(p.Muted)

	s.Status.Active = plain.Foreground(p.Good)
	s.Status.Quarantined = plain.Foreground(p.Warn)
	s.Status.Archived = plain.Foreground(p.Muted)

	s.Detail.Label = plain.Foreground(p.Muted)
	s.Detail.Value = plain.Foreground(p.Fg)
	s.Detail.Heading = plain.Foreground(p.Accent).Bold(true)
	s.Detail.Box = plain.Border(lipgloss.NormalBorder(), true, false, false, false).BorderForeground(p.Border)

	s.Filter.Label = plain.Foreground(p.Muted)
	s.Filter.Chip = plain.Foreground(p.Accent)

	s.Help = help.DefaultStyles(isDark)
	s.Input = textinput.DefaultStyles(isDark)
	if noColor {
		s.Help = help.Styles{}
		s.Input = textinput.Styles{}
	}
	// A steady cursor: blinking would redraw the screen twice a second for
	// nothing.
	s.Input.Cursor.Blink = false
	s.Spinner = plain.Foreground(p.Accent)
	s.Overlay = plain.Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent).Padding(0, 1)
	return s
}
