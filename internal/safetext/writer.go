package safetext

import (
	"io"
	"unicode/utf8"
)

// Writer is the terminal-safety boundary of a command's output: everything
// written through it leaves as Sanitize would draw it (line breaks and tabs
// kept), whoever produced it — memory text, a project name, a key, the text
// of a server's error, an OTLP document. A rune split across two writes is
// held until its last byte arrives (and a final "\r" until the next byte
// says whether it ends a line); Flush writes what is held.
//
// JSON documents pass unchanged: encoding/json escapes C0 controls, and
// EscapeJSON the runes Sanitize would replace, so a well-made document
// holds none of them.
type Writer struct {
	w    io.Writer
	held []byte // the first bytes of a rune cut by the end of a write
}

// Raw is the writer under s, for output memtrace itself draws with
// controls (a progress bar's carriage return) and to ask whether it is a
// terminal.
func (s *Writer) Raw() io.Writer { return s.w }

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sanitises p and writes it; it reports len(p) on success, as the
// caller's bytes were all consumed (the written form may be longer).
func (s *Writer) Write(p []byte) (int, error) {
	buf := p
	if len(s.held) > 0 {
		buf = append(s.held, p...)
		s.held = nil
	}
	// Hold back an incomplete rune at the end for the next write.
	cut := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	if cut > 0 && cut == len(buf) && buf[cut-1] == '\r' {
		cut-- // it may be the first half of a "\r\n"
	}
	if cut < len(buf) {
		s.held = append([]byte(nil), buf[cut:]...)
		buf = buf[:cut]
	}
	if len(buf) == 0 {
		return len(p), nil
	}
	if _, err := io.WriteString(s.w, Sanitize(string(buf))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held: a "\r", or an incomplete rune (as the
// replacement character: the stream ended inside it).
func (s *Writer) Flush() error {
	if len(s.held) == 0 {
		return nil
	}
	held := s.held
	s.held = nil
	_, err := io.WriteString(s.w, Sanitize(string(held)))
	return err
}
