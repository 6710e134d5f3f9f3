// Package importer turns other tools' conversation records into the
// engine's Message stream: Claude Code session transcripts and the LoCoMo
// benchmark. Importers only parse; deciding what is worth remembering is
// the capture pipeline's job, so tool noise is passed on (as role "tool")
// for the noise filters to drop rather than dropped here.
package importer

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"memtrace/engine"
)

// RoleTool is the role of messages made from tool calls and tool output.
const RoleTool = "tool"

// MaxToolText is how many characters of one tool call or tool result are
// kept; the rest is replaced by a "[truncated: …]" marker so a file dump
// cannot become a multi-megabyte capture.
const MaxToolText = 2000

// maxLine is the longest transcript line accepted (tool results can carry
// whole files).
const maxLine = 64 << 20

// ccLine is one line of a Claude Code session transcript
// (~/.claude/projects/<project>/<session>.jsonl).
type ccLine struct {
	Type      string     `json:"type"` // user | assistant | summary | system | file-history-snapshot …
	UUID      string     `json:"uuid"`
	SessionID string     `json:"sessionId"`
	Timestamp string     `json:"timestamp"`
	Cwd       string     `json:"cwd"`
	IsMeta    bool       `json:"isMeta"`
	Message   *ccMessage `json:"message"`
}

type ccMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or an array of blocks
}

type ccBlock struct {
	Type    string          `json:"type"` // text | thinking | redacted_thinking | tool_use | tool_result | image
	Text    string          `json:"text"`
	Name    string          `json:"name"`    // tool_use
	Input   json.RawMessage `json:"input"`   // tool_use
	Content json.RawMessage `json:"content"` // tool_result: a string or an array of blocks
	IsError bool            `json:"is_error"`
}

// ReadClaudeCode reads a Claude Code session transcript (JSONL) and calls fn
// for every message in it, in order:
//
//   - the text blocks of a user or assistant line become one message with
//     the line's uuid as id, its sessionId as session and the base name of
//     its cwd as project;
//   - every tool_use and tool_result block becomes a role "tool" message
//     with id "<uuid>#<block index>", so the noise filters see (and can drop)
//     it; thinking blocks and images are not conversation and are skipped;
//   - summary, system and snapshot lines, and meta lines (isMeta) that
//     Claude Code injects itself, carry no conversation and are skipped.
//
// A malformed line is reported as a LineError and the rest is still read.
// An error returned by fn stops the reading and is returned.
func ReadClaudeCode(r io.Reader, fn func(line int, m engine.Message) error) ([]engine.LineError, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var bad []engine.LineError
	n := 0
	for sc.Scan() {
		n++
		raw := strings.TrimSpace(sc.Text())
		if n == 1 {
			raw = strings.TrimPrefix(raw, "\ufeff") // a UTF-8 byte order mark
		}
		if raw == "" {
			continue
		}
		ms, err := parseClaudeCodeLine([]byte(raw))
		if err != nil {
			bad = append(bad, engine.LineError{Line: n, Error: err.Error()})
			continue
		}
		for _, m := range ms {
			if err := fn(n, m); err != nil {
				return bad, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return bad, fmt.Errorf("line %d is longer than %d MiB: %w", n+1, maxLine>>20, err)
		}
		return bad, fmt.Errorf("read transcript: %w", err)
	}
	return bad, nil
}

// parseClaudeCodeLine returns the messages one transcript line carries
// (none for lines that are not conversation).
func parseClaudeCodeLine(raw []byte) ([]engine.Message, error) {
	var l ccLine
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("not a JSON object (%s)", engine.JSONProblem(err))
	}
	if l.Type == "" {
		return nil, errors.New(`no "type" field: not a Claude Code transcript line`)
	}
	if l.Type != "user" && l.Type != "assistant" || l.IsMeta {
		return nil, nil
	}
	if l.Message == nil {
		return nil, fmt.Errorf("%s line without a message", l.Type)
	}
	if l.UUID == "" {
		return nil, fmt.Errorf("%s line without a uuid", l.Type)
	}
	at, err := time.Parse(time.RFC3339Nano, l.Timestamp)
	if err != nil {
		return nil, fmt.Errorf("timestamp %q is not RFC 3339", l.Timestamp)
	}
	role := l.Message.Role
	if role == "" {
		role = l.Type
	}
	base := engine.Message{Session: l.SessionID, At: at.UTC(), Project: projectName(l.Cwd)}
	msg := func(id, role, text string) engine.Message {
		m := base
		m.ID, m.Role, m.Text = id, role, text
		return m
	}

	content := l.Message.Content
	if len(content) == 0 || string(content) == "null" {
		return nil, nil
	}
	var s string
	if content[0] == '"' {
		if err := json.Unmarshal(content, &s); err != nil {
			return nil, fmt.Errorf("message content: %v", err)
		}
		if strings.TrimSpace(s) == "" {
			return nil, nil
		}
		if isCommandMarkup(s) {
			return []engine.Message{msg(l.UUID, RoleTool, clip(s))}, nil
		}
		return []engine.Message{msg(l.UUID, role, s)}, nil
	}
	var blocks []ccBlock
	if err := json.Unmarshal(content, &blocks); err != nil {
		return nil, fmt.Errorf("message content is neither a string nor an array of blocks: %v", err)
	}
	var texts []string
	var tools []engine.Message
	for i, b := range blocks {
		id := fmt.Sprintf("%s#%d", l.UUID, i)
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				texts = append(texts, b.Text)
			}
		case "tool_use":
			t := "tool_use " + b.Name
			if len(b.Input) > 0 && string(b.Input) != "null" {
				t += " " + string(b.Input)
			}
			tools = append(tools, msg(id, RoleTool, clip(t)))
		case "tool_result":
			t := resultText(b.Content)
			if b.IsError {
				t = "tool error: " + t
			}
			if strings.TrimSpace(t) != "" {
				tools = append(tools, msg(id, RoleTool, clip(t)))
			}
		}
	}
	var out []engine.Message
	if len(texts) > 0 {
		out = append(out, msg(l.UUID, role, strings.Join(texts, "\n\n")))
	}
	return append(out, tools...), nil
}

// resultText flattens a tool_result's content: a string, or an array of
// text (and image) blocks.
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []ccBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n")
}

// isCommandMarkup reports whether a user "message" is Claude Code's own
// record of a slash command or its local output rather than typed text.
func isCommandMarkup(s string) bool {
	s = strings.TrimSpace(s)
	for _, p := range []string{"<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// clip keeps the first MaxToolText characters of a tool text.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxToolText {
		return s
	}
	rs := []rune(s)
	return fmt.Sprintf("%s [truncated: %d characters of tool output exceeded the %d-character limit]",
		string(rs[:MaxToolText]), len(rs)-MaxToolText, MaxToolText)
}

// projectName is the last element of a working directory, POSIX or Windows.
func projectName(cwd string) string {
	cwd = strings.TrimRight(strings.ReplaceAll(cwd, `\`, "/"), "/")
	if cwd == "" {
		return ""
	}
	return path.Base(cwd)
}
