package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// Stored-memory sources: an agent's memory store read as it is, for
// `memtrace import memories`. Unlike the conversation importers above, these
// bypass the capture pipeline: the point is to audit what the agent already
// remembers, noise and label prefixes included.
const (
	SourceJSONL       = "jsonl"
	SourceChroma      = "chroma"
	SourceMem0        = "mem0"
	SourceMemoryFiles = "memory-files"
)

// StoredSources lists the source kinds `import memories --from` takes.
func StoredSources() []string {
	return []string{SourceJSONL, SourceChroma, SourceMem0, SourceMemoryFiles}
}

// DetectSource names the kind of memory store at path: a Chroma persistent
// directory (or its chroma.sqlite3), a mem0 history database, a directory
// of Markdown memory files, or a JSONL file. It never follows a symbolic
// link.
func DetectSource(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return "", errSymlink(path)
	}
	if fi.IsDir() {
		if st, err := os.Lstat(filepath.Join(path, "chroma.sqlite3")); err == nil && st.Mode().IsRegular() {
			return SourceChroma, nil
		}
		return SourceMemoryFiles, nil
	}
	switch {
	case filepath.Base(path) == "chroma.sqlite3":
		return SourceChroma, nil
	case strings.HasSuffix(path, ".md"):
		return SourceMemoryFiles, nil
	case isMem0Export(path):
		return SourceMem0, nil
	}
	head := make([]byte, 16)
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	n, _ := io.ReadFull(f, head)
	if bytes.HasPrefix(head[:n], []byte("SQLite format 3\x00")) {
		tables, err := sqliteTables(path)
		if err != nil {
			return "", err
		}
		switch {
		case tables["embeddings"] && tables["embedding_metadata"]:
			return SourceChroma, nil
		case tables["history"]:
			return SourceMem0, nil
		}
		return "", fmt.Errorf("%s is a SQLite database but neither a Chroma store (embeddings, embedding_metadata) nor a mem0 history database (history); name the source with --from", path)
	}
	return SourceJSONL, nil
}

func errSymlink(path string) error {
	return engine.Errorf(engine.EINVALID, "%s is a symbolic link; memtrace does not follow links a source hands it: name the file it points to", path)
}

// ReadOptions are what a reader needs beside the path.
type ReadOptions struct {
	// Payloads is mem0's vector-store points (Qdrant scroll JSON Lines),
	// where mem0 keeps each memory's user_id; without it a mem0 history
	// database names no owner.
	Payloads string
	// As says whose memory files a directory holds (MemoryFilesUser,
	// MemoryFilesProject); empty: detected (see ReadMemoryFilesAs).
	As string
}

// ReadStored reads the memories of the store at path, of the given kind,
// with the reader options. Records it cannot use are returned as problems
// by position; an error means the source as a whole could not be read.
func ReadStored(kind, path string, o ReadOptions) ([]capture.StoredMemory, []capture.RecordError, error) {
	if o.Payloads != "" && kind != SourceMem0 {
		return nil, nil, engine.Errorf(engine.EINVALID, "--payloads is for a mem0 history database, not a %s source", kind)
	}
	switch kind {
	case SourceJSONL:
		return readStoredJSONLFile(path)
	case SourceChroma:
		return ReadChroma(path)
	case SourceMem0:
		return ReadMem0(path, o.Payloads)
	case SourceMemoryFiles:
		return ReadMemoryFilesAs(path, o.As)
	}
	return nil, nil, engine.Errorf(engine.EINVALID, "unknown memory source %q: use %s", kind, strings.Join(StoredSources(), ", "))
}

func readStoredJSONLFile(path string) ([]capture.StoredMemory, []capture.RecordError, error) {
	if path == "-" {
		return ReadStoredJSONL(os.Stdin)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, nil, errSymlink(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	return ReadStoredJSONL(f)
}

// storedLine is one line of the generic memory JSONL:
//
//	{"id": "m-1", "text": "…", "type": "preference", "importance": 0.7,
//	 "created_at": "2026-03-01T09:00:00Z", "last_accessed_at": "…",
//	 "deleted": false, "scope": "global", "session": "…", "metadata": {…}}
//
// Only id and text are required.
type storedLine struct {
	ID             json.RawMessage `json:"id"`
	Text           *string         `json:"text"`
	Type           string          `json:"type"`
	Importance     *float64        `json:"importance"`
	CreatedAt      string          `json:"created_at"`
	LastAccessedAt string          `json:"last_accessed_at"`
	Deleted        bool            `json:"deleted"`
	Scope          string          `json:"scope"`
	Session        string          `json:"session"`
	Metadata       map[string]any  `json:"metadata"`
}

// ReadStoredJSONL reads the generic memory JSONL (one object a line, see
// storedLine). A UTF-8 byte order mark is accepted; a line that is not such
// an object is reported by number and the rest is read.
func ReadStoredJSONL(r io.Reader) ([]capture.StoredMemory, []capture.RecordError, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var out []capture.StoredMemory
	var bad []capture.RecordError
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if n == 1 {
				line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			}
			pos := "line " + strconv.Itoa(n)
			if t := bytes.TrimSpace(line); len(t) > 0 {
				m, perr := parseStoredLine(t)
				if perr != "" {
					bad = append(bad, capture.RecordError{Position: pos, Error: perr})
				} else {
					m.Position = pos
					out = append(out, m)
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return out, bad, nil
		} else if err != nil {
			return out, bad, fmt.Errorf("read line %d: %w", n, err)
		}
	}
}

func parseStoredLine(b []byte) (capture.StoredMemory, string) {
	var l storedLine
	if err := json.Unmarshal(b, &l); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return capture.StoredMemory{}, fmt.Sprintf("field %q must be a %s, not a JSON %s", ute.Field, jsonKind(ute.Type.Kind().String()), ute.Value)
		}
		return capture.StoredMemory{}, "not a JSON object: " + strings.TrimPrefix(err.Error(), "json: ")
	}
	id, err := scalarID(l.ID)
	if err != nil {
		return capture.StoredMemory{}, err.Error()
	}
	if l.Text == nil {
		return capture.StoredMemory{}, `no "text": every memory needs its text`
	}
	m := capture.StoredMemory{SourceID: id, Text: *l.Text, Type: l.Type, Importance: math.NaN(), Deleted: l.Deleted,
		Scope: l.Scope, Session: l.Session, Metadata: l.Metadata}
	if l.Importance != nil {
		m.Importance = *l.Importance
	}
	if m.CreatedAt, err = parseStoredTime(l.CreatedAt); err != nil {
		return m, "created_at: " + err.Error()
	}
	if m.LastAccessedAt, err = parseStoredTime(l.LastAccessedAt); err != nil {
		return m, "last_accessed_at: " + err.Error()
	}
	return m, ""
}

func jsonKind(k string) string {
	switch k {
	case "ptr":
		return "string"
	case "float64":
		return "number"
	case "map":
		return "object"
	}
	return k
}

// scalarID reads an id given as a JSON string or number.
func scalarID(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", errors.New(`no "id": every memory needs the id its store gave it`)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), nil
	}
	return "", errors.New(`"id" must be a string or a number`)
}

// storedTimeLayouts are the timestamp forms memory stores write: RFC 3339
// with or without fraction and zone, SQLite's CURRENT_TIMESTAMP, Python's
// isoformat, a plain date.
var storedTimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

// parseStoredTime parses a source's timestamp; "" is the zero time. A bare
// number is Unix seconds (milliseconds when it is too large for seconds).
func parseStoredTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, l := range storedTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
		return unixTime(f), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a time (use RFC 3339, e.g. 2026-03-01T09:00:00Z)", s)
}

func unixTime(f float64) time.Time {
	if f > 1e11 { // milliseconds
		f /= 1000
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}
