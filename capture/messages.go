package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"memtrace/engine"
)

// MaxLineBytes bounds one JSONL line (64 MiB): a longer line is reported and
// skipped instead of exhausting memory.
const MaxLineBytes = 64 << 20

// ReadMessages streams message JSONL from r and calls fn for every valid
// line, in order. It never stops at a malformed line: each one is returned
// as a LineError saying what to fix, and the lines after it are still read.
// An error returned by fn (a failed write) stops the read and is returned.
//
// Format, one object a line: {"id"?, "session", "role", "text", "at",
// "project"?}. session, role, text and at are required; role is one of
// user, assistant, system, tool. at is either an RFC 3339 string
// ("2026-03-01T09:00:00Z", any offset, converted to UTC) or a JSON number of
// Unix seconds (fractions allowed) — the two forms exporters produce; a
// string of digits is refused because it is ambiguous between seconds and
// milliseconds. Blank lines are skipped. Lines of any length up to
// MaxLineBytes are read (bufio.Reader, not Scanner's 64 KiB limit).
//
// Bytes that are not UTF-8 are replaced with U+FFFD, NUL bytes (raw, or
// \u0000 inside a string) are removed; the message is still read and the
// repair is reported as a LineError so the source can be fixed.
func ReadMessages(r io.Reader, fn func(line int, m engine.Message) error) ([]engine.LineError, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var errs []engine.LineError
	for n := 1; ; n++ {
		raw, tooLong, err := readLine(br)
		if err != nil && !errors.Is(err, io.EOF) {
			return errs, fmt.Errorf("read messages at line %d: %w", n, err)
		}
		eof := errors.Is(err, io.EOF)
		if n == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
		}
		if tooLong {
			errs = append(errs, engine.LineError{Line: n, Error: fmt.Sprintf("line is longer than %d MiB; split the text into several messages", MaxLineBytes>>20)})
		} else if len(bytes.TrimSpace(raw)) > 0 {
			m, repairs, perr := parseMessage(raw)
			for _, rp := range repairs {
				errs = append(errs, engine.LineError{Line: n, Error: rp})
			}
			if perr != nil {
				errs = append(errs, engine.LineError{Line: n, Error: perr.Error()})
			} else if err := fn(n, m); err != nil {
				return errs, err
			}
		}
		if eof {
			return errs, nil
		}
	}
}

// readLine reads one line without its newline. A line longer than
// MaxLineBytes is consumed and reported as tooLong.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			tooLong = true
			buf = buf[:0]
		} else {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		return buf, tooLong, err
	}
}

type rawMessage struct {
	ID      *json.RawMessage `json:"id"`
	Session *string          `json:"session"`
	Role    *string          `json:"role"`
	Text    *string          `json:"text"`
	At      json.RawMessage  `json:"at"`
	Project *string          `json:"project"`
}

// parseMessage decodes and validates one line; repairs lists what was
// fixed on the way.
func parseMessage(raw []byte) (engine.Message, []string, error) {
	var repairs []string
	if bytes.IndexByte(raw, 0) >= 0 {
		raw = bytes.ReplaceAll(raw, []byte{0}, nil)
		repairs = append(repairs, "NUL bytes removed; fix the exporter that wrote them")
	}
	if !utf8.Valid(raw) {
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
		repairs = append(repairs, "invalid UTF-8 replaced with U+FFFD; re-encode the file as UTF-8")
	}
	var rm rawMessage
	if err := json.Unmarshal(raw, &rm); err != nil {
		return engine.Message{}, repairs, fmt.Errorf("not a JSON object (%s); each line must be one object like {\"session\":\"s1\",\"role\":\"user\",\"text\":\"…\",\"at\":\"2026-03-01T09:00:00Z\"}", JSONProblem(err))
	}
	var missing []string
	for _, f := range []struct {
		name string
		ok   bool
	}{{"session", rm.Session != nil && *rm.Session != ""}, {"role", rm.Role != nil && *rm.Role != ""},
		{"text", rm.Text != nil}, {"at", len(rm.At) > 0 && string(rm.At) != "null"}} {
		if !f.ok {
			missing = append(missing, `"`+f.name+`"`)
		}
	}
	if len(missing) > 0 {
		return engine.Message{}, repairs, fmt.Errorf("missing %s; every message needs session, role, text and at", strings.Join(missing, ", "))
	}
	m := engine.Message{Session: *rm.Session, Role: strings.ToLower(strings.TrimSpace(*rm.Role)), Text: *rm.Text}
	if rm.Project != nil {
		m.Project = strings.TrimSpace(*rm.Project)
		if err := engine.ValidateProject(m.Project); err != nil {
			return engine.Message{}, repairs, fmt.Errorf("%s; fix \"project\" on this line (the other lines are read)", engine.ErrorMessage(err))
		}
	}
	if rm.ID != nil {
		id, err := engine.MessageID(*rm.ID)
		if err != nil {
			return engine.Message{}, repairs, err
		}
		m.ID = id
	}
	switch m.Role {
	case "user", "assistant", "system", "tool":
	default:
		return engine.Message{}, repairs, fmt.Errorf("role %q is not one of user, assistant, system, tool", *rm.Role)
	}
	at, err := parseAt(rm.At)
	if err != nil {
		return engine.Message{}, repairs, err
	}
	m.At = at
	if strings.IndexByte(m.Text, 0) >= 0 || strings.IndexByte(m.Session, 0) >= 0 {
		m.Text = strings.ReplaceAll(m.Text, "\x00", "")
		m.Session = strings.ReplaceAll(m.Session, "\x00", "")
		repairs = append(repairs, `\u0000 removed from text; fix the exporter that wrote it`)
	}
	return m, repairs, nil
}

// parseAt reads an RFC 3339 string or a number of Unix seconds.
func parseAt(raw json.RawMessage) (time.Time, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, fmt.Errorf(`"at" %q is not RFC 3339; write it like "2026-03-01T09:00:00Z" or as a number of Unix seconds`, s)
		}
		return t.UTC(), nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 1e11 {
		return time.Time{}, fmt.Errorf(`"at" %s is neither an RFC 3339 string nor Unix seconds; write it like "2026-03-01T09:00:00Z"`, raw)
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
}

// JSONProblem shortens a decoder error to what a person needs, in JSON's
// words: never a Go type name.
func JSONProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("syntax error at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := jsonKindName(te.Type)
		if te.Field == "" {
			return fmt.Sprintf("the line is a JSON %s, not %s", te.Value, want)
		}
		return fmt.Sprintf("field %q has a %s where %s belongs", te.Field, te.Value, want)
	}
	if strings.HasPrefix(err.Error(), "unexpected end of JSON") {
		return "the line ends before the JSON does"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKindName names what a Go type holds in JSON terms.
func jsonKindName(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Name() == "RawMessage" {
			return "a value"
		}
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a value"
}
