package safetext

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// Whatever the chunking, the bytes that leave a Writer are what Sanitize
// makes of the whole text, and none acts on a terminal.
func TestWriterSanitisesAcrossWrites(t *testing.T) {
	text := "ok \x1b[31mred\x1b[0m \x1b]52;c;aGk=\x07 \u202egnp.exe \u009b2J 한국어 줄\n탭\there\r\n끝 \x7f"
	want := Sanitize(text)
	for chunk := 1; chunk <= len(text); chunk++ {
		var out bytes.Buffer
		w := NewWriter(&out)
		for i := 0; i < len(text); i += chunk {
			end := min(i+chunk, len(text))
			if n, err := w.Write([]byte(text[i:end])); err != nil || n != end-i {
				t.Fatalf("chunk %d: Write = %d, %v", chunk, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Fatalf("chunk %d:\n got %q\nwant %q", chunk, out.String(), want)
		}
		if r, bad := forbidden(out.String(), true); bad {
			t.Fatalf("chunk %d: %U reached the output", chunk, r)
		}
	}
}

func TestWriterFlushesACutRune(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Write([]byte("가")[:2])
	if out.Len() != 0 {
		t.Fatalf("an incomplete rune was written: %q", out.String())
	}
	w.Flush()
	if !utf8.ValidString(out.String()) || !strings.Contains(out.String(), Invalid) {
		t.Fatalf("flush of a cut rune = %q", out.String())
	}
}
