package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestProgress(t *testing.T) {
	t.Run("LogLinesEveryTenth", func(t *testing.T) {
		var b bytes.Buffer
		p := newProgress(&b, "reembed x", "memories", 200)
		for i := 0; i <= 200; i += 5 {
			p.set(i)
		}
		p.finish()
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if len(lines) != 11 || lines[0] != "reembed x: 0/200 memories (0%)" || lines[10] != "reembed x: 200/200 memories (100%)" || strings.Contains(b.String(), "\r") {
			t.Fatalf("%d lines:\n%s", len(lines), b.String())
		}
	})
	t.Run("TerminalBarRedrawn", func(t *testing.T) {
		var b bytes.Buffer
		p := newProgress(&b, "reembed x", "memories", 4)
		p.tty = true
		p.set(1)
		p.set(4)
		p.finish()
		want := "\rreembed x [#######.......................] 1/4 memories  25%" +
			"\rreembed x [##############################] 4/4 memories 100%\n"
		if b.String() != want {
			t.Fatalf("got %q\nwant %q", b.String(), want)
		}
	})
}
