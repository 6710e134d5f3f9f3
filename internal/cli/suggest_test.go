package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"strings"
	"testing"
)

// TestUnknownCommandSuggests: a near miss of a command, a subcommand or a
// flag is answered with the nearest name and a usage exit; the command
// never runs.
func TestUnknownCommandSuggests(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"recal", "x"}, `unknown command "recal"; did you mean recall?`},
		{[]string{"injest", "f.jsonl"}, "did you mean ingest?"},
		{[]string{"golden", "rn"}, `unknown subcommand "rn"; did you mean run?`},
		{[]string{"recall", "--bugdet", "3", "x"}, "did you mean --budget?"},
		{[]string{"--dbb", "x.db", "recall", "x"}, "did you mean --db?"},
		{[]string{"proposals", "--statuss", "open"}, "did you mean --status?"},
		{[]string{"proposals", "--status", "bogus"}, `"bogus" is not one of pending, needs_review`},
		{[]string{"proposals", "--status", "pendng"}, "did you mean pending?"},
		{[]string{"approve", "--all-pending", "--kind", "retyp"}, "did you mean retype?"},
		{[]string{"review", "list", "--status", "hold"}, "is not one of held"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		dir := t.TempDir()
		args := append([]string{}, c.args...)
		if c.args[0] != "--dbb" {
			args = append(args, "--db", dir+"/x.db")
		}
		code := Run(context.Background(), args, strings.NewReader(""), &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("memtrace %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, errOut.String(), c.want)
		}
	}
	var out, errOut bytes.Buffer
	Run(context.Background(), []string{"zzqqxx"}, strings.NewReader(""), &out, &errOut)
	if strings.Contains(errOut.String(), "did you mean") {
		t.Errorf("a word near no command got a suggestion: %q", errOut.String())
	}
}

// TestHelpPlaceholders: the flag package reads the first back-quoted text
// of a help string as the value's placeholder (flag.UnquoteUsage), so a
// back-quoted command in a help string becomes `--embedder memtrace
// reembed …`. Every flag of every command must have a one-word placeholder.
func TestHelpPlaceholders(t *testing.T) {
	eachCommand(func(name string, c command) {
		flagSetOf(name, c).VisitAll(func(f *flag.Flag) {
			if ph, _ := flag.UnquoteUsage(f); strings.ContainsAny(ph, " \t") {
				t.Errorf("memtrace %s --%s: placeholder %q (back-quoted text in the help string)", name, f.Name, ph)
			}
		})
	})
}

// TestDemoInvocation: the demo's next commands are spelled as the user
// ran memtrace — go run's cache binary as "go run .", a binary on $PATH by
// its name, any other by its path.
func TestDemoInvocation(t *testing.T) {
	bin := t.TempDir()
	onPath := bin + "/memtrace"
	if err := os.WriteFile(onPath, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	other := t.TempDir() + "/my tools/memtrace"
	for arg0, want := range map[string]string{
		"/tmp/go-build1234/b001/exe/memtrace": "go run .",
		onPath:                                "memtrace",
		other:                                 "'" + other + "'",
		"./memtrace":                          "./memtrace",
	} {
		if got := invocation(arg0); got != want {
			t.Errorf("invocation(%q) = %q, want %q", arg0, got, want)
		}
	}
}
