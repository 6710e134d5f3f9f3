package importer

import (
	"regexp"
	"strings"
)

// Claude Code writes its own text into the user's turns: markup around
// slash commands and their output, bash mode (`!cmd`), notifications of
// background tasks, reminders to the model, what the IDE had open, hook
// output, and markers of an interrupted turn. None of it is something the
// user said. harnessTags lists the elements removed with their content;
// interruptMarkers the plain-text markers removed.
var harnessTags = []string{
	"system-reminder", "user-prompt-submit-hook",
	"command-name", "command-message", "command-args", "local-command-stdout", "local-command-stderr",
	"bash-input", "bash-stdout", "bash-stderr", "task-notification",
}

var interruptMarkers = []string{
	"[Request interrupted by user for tool use]",
	"[Request interrupted by user]",
}

// harnessMarkup matches one harness element with its content (non-greedy:
// two elements on a line are two matches), or any <ide_…> element.
var harnessMarkup = func() *regexp.Regexp {
	alts := make([]string, 0, len(harnessTags)+1)
	for _, t := range harnessTags {
		alts = append(alts, "<"+regexp.QuoteMeta(t)+`(?:\s[^>]*)?>.*?</`+regexp.QuoteMeta(t)+`>`)
	}
	alts = append(alts, `<ide_[a-z_]+(?:\s[^>]*)?>.*?</ide_[a-z_]+>`)
	return regexp.MustCompile(`(?s)` + strings.Join(alts, "|"))
}()

// stripHarness returns text without Claude Code's own markup and
// interrupt markers, and whether any was there. An empty result means the
// text was the harness's alone.
func stripHarness(text string) (string, bool) {
	out := harnessMarkup.ReplaceAllString(text, "")
	for _, m := range interruptMarkers {
		out = strings.ReplaceAll(out, m, "")
	}
	if out == text {
		return text, false
	}
	return strings.TrimSpace(squashBlankLines(out)), true
}

// squashBlankLines folds the runs of blank lines a removed element leaves.
func squashBlankLines(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}
