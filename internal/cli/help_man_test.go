package cli

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func TestManPage(t *testing.T) {
	var b bytes.Buffer
	if err := WriteManPage(&b, "v0.9.1", "2026-12-01"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.HasPrefix(page, `.TH MEMTRACE 1 "2026-12-01" "memtrace v0.9.1"`) {
		t.Fatalf("title line: %q", strings.SplitN(page, "\n", 2)[0])
	}
	// Every command and every help topic is in the page, as help prints it.
	eachCommand(func(name string, c command) {
		if want := roffText("memtrace " + synopsis(name, c, flagSetOf(name, c))); !strings.Contains(page, want) {
			t.Errorf("man page lacks command %s (%q)", name, want)
		}
	})
	for name, text := range helpTopics() {
		if !strings.Contains(page, roffText(text)) {
			t.Fatalf("man page lacks help topic %s", name)
		}
	}
	// No text line is read as a roff request: every line that starts with
	// a dot is one of the macros the page uses.
	macros := map[string]bool{".TH": true, ".SH": true, ".TP": true, ".B": true, ".BI": true, ".PP": true, ".nf": true, ".fi": true, ".br": true}
	for i, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			if !macros[strings.Fields(l)[0]] {
				t.Fatalf("line %d is read as a roff request: %q", i+1, l)
			}
		}
	}
	// Where man is installed, it must render the page without a warning.
	man, err := exec.LookPath("man")
	if err != nil {
		t.Log("man is not installed: the page is checked as text only, not rendered")
		return
	}
	cmd := exec.Command(man, "--warnings", "-l", "-")
	cmd.Stdin = strings.NewReader(page)
	cmd.Env = append(cmd.Environ(), "MANPAGER=cat", "MANWIDTH=80")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("man -l: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "memtrace --version") {
		t.Fatalf("rendered page lacks the synopsis:\n%s", out.String())
	}
}
