package safetext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, block, line string
	}{
		{"plain English", "likes green tea", "likes green tea", "likes green tea"},
		{"Korean", "녹차를 좋아함", "녹차를 좋아함", "녹차를 좋아함"},
		{"OSC title with BEL", "a\x1b]0;pwned\x07b", "a␛]0;pwned␇b", "a␛]0;pwned␇b"},
		{"OSC with ST", "\x1b]8;;http://x\x1b\\link", "␛]8;;http://x␛\\link", "␛]8;;http://x␛\\link"},
		{"CSI clear screen", "x\x1b[2Jy", "x␛[2Jy", "x␛[2Jy"},
		{"CSI colour", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m", "␛[31mred␛[0m"},
		{"DCS", "\x1bP1$r\x1b\\", "␛P1$r␛\\", "␛P1$r␛\\"},
		{"APC", "\x1b_Gf=1\x1b\\", "␛_Gf=1␛\\", "␛_Gf=1␛\\"},
		{"C1 CSI", "a\u009b2Jb", "a␛[2Jb", "a␛[2Jb"},
		{"C1 OSC and ST", "\u009d0;t\u009c", "␛]0;t␛\\", "␛]0;t␛\\"},
		{"NEL", "a\u0085b", "a␛Eb", "a␛Eb"},
		{"newline", "one\ntwo", "one\ntwo", "one⏎two"},
		{"CRLF", "one\r\ntwo", "one\ntwo", "one⏎two"},
		{"lone CR", "one\rtwo", "one␍two", "one␍two"},
		{"tab", "a\tb", "a\tb", "a b"},
		{"backspace and bell", "a\bb\x07", "a␈b␇", "a␈b␇"},
		{"NUL", "a\x00b", "a␀b", "a␀b"},
		{"DEL", "a\x7fb", "a␡b", "a␡b"},
		{"line separator", "a\u2028b\u2029c", "a\nb\nc", "a⏎b⏎c"},
		{"RLO", "user\u202etxt.exe", "user⟨RLO⟩txt.exe", "user⟨RLO⟩txt.exe"},
		{"isolates", "\u2066a\u2069\u2067b\u2068", "⟨LRI⟩a⟨PDI⟩⟨RLI⟩b⟨FSI⟩", "⟨LRI⟩a⟨PDI⟩⟨RLI⟩b⟨FSI⟩"},
		{"embeddings", "\u202a\u202b\u202c\u202d", "⟨LRE⟩⟨RLE⟩⟨PDF⟩⟨LRO⟩", "⟨LRE⟩⟨RLE⟩⟨PDF⟩⟨LRO⟩"},
		{"marks", "\u200e\u200f\u061c", "⟨LRM⟩⟨RLM⟩⟨ALM⟩", "⟨LRM⟩⟨RLM⟩⟨ALM⟩"},
		{"invalid UTF-8", "a\xffb\x9bc", "a\uFFFDb\uFFFDc", "a\uFFFDb\uFFFDc"},
		{"ZWJ emoji kept", "👩\u200d💻", "👩\u200d💻", "👩\u200d💻"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.block {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.block)
			}
			if got := SanitizeLine(tt.in); got != tt.line {
				t.Errorf("SanitizeLine(%q) = %q, want %q", tt.in, got, tt.line)
			}
			if Clean(tt.in) != (tt.in == tt.line) {
				t.Errorf("Clean(%q) = %v, but SanitizeLine changes it: %v", tt.in, Clean(tt.in), tt.in != tt.line)
			}
		})
	}
}

func TestWidth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"녹차", 4},
		{"a녹b", 4},
		{"\x1b[31mred\x1b[0m", 3},
		{"👩\u200d💻", 2},
	}
	for _, tt := range tests {
		if got := Width(tt.in); got != tt.want {
			t.Errorf("Width(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello world", 6, "hello…"},
		{"녹차를 좋아함", 7, "녹차를…"},
		{"녹차를 좋아함", 6, "녹차…"}, // a wide rune is never split
		{"녹차", 1, "…"},
		{"abc", 0, ""},
		{"abc", -3, ""},
	}
	for _, tt := range tests {
		got := Truncate(tt.in, tt.w)
		if got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
		if tt.w > 0 && Width(got) > tt.w {
			t.Errorf("Truncate(%q, %d) is %d cells wide", tt.in, tt.w, Width(got))
		}
	}
}

func TestPad(t *testing.T) {
	tests := []struct {
		in          string
		w           int
		right, left string
	}{
		{"ab", 4, "ab  ", "  ab"},
		{"녹차", 5, "녹차 ", " 녹차"},
		{"녹차를 좋아함", 6, "녹차… ", " 녹차…"},
		{"abcdef", 3, "ab…", "ab…"},
		{"x", 0, "", ""},
	}
	for _, tt := range tests {
		if got := PadRight(tt.in, tt.w); got != tt.right {
			t.Errorf("PadRight(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.right)
		}
		if got := PadLeft(tt.in, tt.w); got != tt.left {
			t.Errorf("PadLeft(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.left)
		}
	}
}

// forbidden reports the first byte or rune a terminal would act on.
func forbidden(s string, allowBlock bool) (rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], Invalid):
			return r, true
		case r == '\n' || r == '\t':
			if !allowBlock {
				return r, true
			}
		case r < 0x20 || r == 0x7f:
			return r, true
		case r >= 0x80 && r <= 0x9f:
			return r, true
		case unsafeRune(r), prependRune(r):
			return r, true
		}
	}
	return 0, false
}

func FuzzSanitize(f *testing.F) {
	for _, seed := range []string{
		"", "plain", "녹차를 좋아함", "\x1b]0;pwned\x07", "\x1b[2J", "\u009b31m", "\u202eabc",
		"a\r\nb\tc", "\xff\xfe", "👩\u200d💻", "\x1bP\x1b\\", "가\x1b[1m나",
		"\u0601", "\u070f", "a\u0600b", "\U000110bd", // found by this fuzzer: Prepend marks glued to the padding
	} {
		f.Add(seed, 7)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		block := Sanitize(s)
		if r, bad := forbidden(block, true); bad {
			t.Fatalf("Sanitize(%q) = %q still holds %U", s, block, r)
		}
		line := SanitizeLine(s)
		if r, bad := forbidden(line, false); bad {
			t.Fatalf("SanitizeLine(%q) = %q still holds %U", s, line, r)
		}
		if strings.Contains(line, "\n") {
			t.Fatalf("SanitizeLine(%q) spans lines", s)
		}
		if !utf8.ValidString(line) {
			t.Fatalf("SanitizeLine(%q) = %q is not UTF-8", s, line)
		}
		w = w % 200
		if w < 0 {
			w = -w
		}
		if got := Truncate(line, w); Width(got) > w {
			t.Fatalf("Truncate(%q, %d) = %q is %d cells", line, w, got, Width(got))
		}
		if got := PadRight(line, w); Width(got) != w {
			t.Fatalf("PadRight(%q, %d) = %q is %d cells", line, w, got, Width(got))
		}
	})
}

// The fuzzer's finds: a Prepend mark joined the padding after it into one
// cell, so PadRight("\u0601", 30) was 29 cells wide.
func TestPadRightPrependMarks(t *testing.T) {
	for _, s := range []string{"\u0601", "\u070f", "x\u0600", "\u0d4e가"} {
		line := SanitizeLine(s)
		if got := PadRight(line, 30); Width(got) != 30 {
			t.Errorf("PadRight(SanitizeLine(%q), 30) = %q is %d cells", s, got, Width(got))
		}
	}
}

// EscapeJSON leaves the meaning of a document and takes the controls out
// of its bytes.
func TestEscapeJSON(t *testing.T) {
	in := map[string]string{"text": "a\u202eb\u009bc\u2066d\u0601e\x1bf 녹차 👩\u200d💻"}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := EscapeJSON(raw)
	for _, r := range string(out) {
		if r >= 0x80 && (unsafeRune(r) || prependRune(r)) || r == 0x1b {
			t.Fatalf("EscapeJSON left %U in %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["text"] != in["text"] {
		t.Fatalf("EscapeJSON changed the document: %s (%v)", out, err)
	}
	if !strings.Contains(string(out), `\u202e`) || !strings.Contains(string(out), "녹차") {
		t.Fatalf("EscapeJSON = %s", out)
	}
}
