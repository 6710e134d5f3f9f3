// Package filename writes names made from user data as file names that
// hold no rune a terminal or a file listing would act on, and reads them
// back. It imports nothing of the module, so the engine may use it.
package filename

import (
	"fmt"
	"strconv"
	"strings"
)

// Encode is a name made from user data (a scope name) as a file name: the name itself,
// but for the runes a terminal or a file listing would act on (controls,
// bidi controls, line separators) and "%", which are written as %XX of
// their UTF-8 bytes — a file name made from user data is never raw.
// Decode reads it back.
func Encode(name string) string {
	if !strings.ContainsFunc(name, encodedInFileName) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		if !encodedInFileName(r) {
			b.WriteRune(r)
			continue
		}
		for _, c := range []byte(string(r)) {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func encodedInFileName(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f, r == '%', r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x2028 && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0xfeff:
		return true
	}
	return false
}

// Decode reverses Encode.
func Decode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}
