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
	"strings"
	"time"
	"unicode/utf8"

	"memtrace/capture"
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
	Type      string `json:"type"` // user | assistant | summary | system | file-history-snapshot | progress …
	UUID      string `json:"uuid"`
	SessionID string `json:"sessionId"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
	GitBranch string `json:"gitBranch"`
	IsMeta    bool   `json:"isMeta"`
	// IsSidechain marks a subagent's traffic (the Task tool): its "user"
	// turns are prompts the main agent wrote, its replies the subagent's.
	IsSidechain bool `json:"isSidechain"`
	// IsCompactSummary marks the summary Claude Code writes as a user turn
	// when it compacts the context.
	IsCompactSummary bool       `json:"isCompactSummary"`
	Message          *ccMessage `json:"message"`
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

// ClaudeCodeOptions configure ReadClaudeCodeWith.
type ClaudeCodeOptions struct {
	// Project names the project of a line from its cwd and the first cwd
	// of its session in the file; nil means SessionProject.
	Project func(cwd, firstCwd string) string
}

// SessionProject is the project of a transcript line: the repository
// cwd is in (RepoProject: the nearest .git at or above it, links never
// followed), else the base name of the session's first working directory —
// so a session that moves into a subfolder (garden-app/web) stays one
// project, garden-app, not two.
func SessionProject(cwd, firstCwd string) string {
	if name, ok := RepoProject(cwd); ok {
		return name
	}
	if firstCwd != "" {
		return projectName(firstCwd)
	}
	return projectName(cwd)
}

// ReadClaudeCode is ReadClaudeCodeWith with the default options.
func ReadClaudeCode(r io.Reader, fn func(line int, m engine.Message) error) ([]engine.LineError, error) {
	return ReadClaudeCodeWith(r, ClaudeCodeOptions{}, fn)
}

// ReadClaudeCodeWith reads a Claude Code session transcript (JSONL) and
// calls fn for every message in it, in order:
//
//   - the text blocks of a user or assistant line become one message with
//     the line's uuid as id, its sessionId as session, its gitBranch as
//     branch and the project named by o.Project;
//   - Claude Code's own markup inside a user's text — <system-reminder>,
//     <ide_…> elements (the file open in the IDE, a selection), hook output,
//     interrupt markers — is removed; a turn that is nothing but the
//     harness's (slash-command and bash-mode markup and output, a
//     <task-notification>, "[Request interrupted by user]") becomes a role
//     "tool" message, which the pipeline logs and never stores;
//   - every tool_use and tool_result block becomes a role "tool" message
//     with id "<uuid>#<block index>", so the noise filters see (and can drop)
//     it; thinking blocks and images are not conversation and are skipped;
//   - subagent lines (isSidechain: the prompt is the main agent's words, the
//     replies the subagent's, neither the user's), compaction summaries
//     (isCompactSummary: a model's summary of earlier turns, already
//     imported as themselves), summary, system, progress and snapshot lines,
//     and meta lines (isMeta) carry no conversation of the user and are
//     skipped.
//
// A malformed line is reported as a LineError and the rest is still read.
// An error returned by fn stops the reading and is returned.
func ReadClaudeCodeWith(r io.Reader, o ClaudeCodeOptions, fn func(line int, m engine.Message) error) ([]engine.LineError, error) {
	project := o.Project
	if project == nil {
		cache := map[[2]string]string{}
		project = func(cwd, first string) string {
			k := [2]string{cwd, first}
			if p, ok := cache[k]; ok {
				return p
			}
			p := SessionProject(cwd, first)
			cache[k] = p
			return p
		}
	}
	firstCwd := map[string]string{} // session → its first cwd in this file
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
		ms, err := parseClaudeCodeLine([]byte(raw), func(session, cwd string) string {
			if _, ok := firstCwd[session]; !ok && cwd != "" {
				firstCwd[session] = cwd
			}
			return project(cwd, firstCwd[session])
		})
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
// (none for lines that are not conversation); project names the project
// of a session's line by its cwd.
func parseClaudeCodeLine(raw []byte, project func(session, cwd string) string) ([]engine.Message, error) {
	var l ccLine
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("not a JSON object (%s)", capture.JSONProblem(err))
	}
	if l.Type == "" {
		return nil, errors.New(`no "type" field: not a Claude Code transcript line`)
	}
	if l.Type != "user" && l.Type != "assistant" || l.IsMeta || l.IsSidechain || l.IsCompactSummary {
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
	base := engine.Message{Session: l.SessionID, At: at.UTC(), Project: project(l.SessionID, l.Cwd), Branch: l.GitBranch}
	msg := func(id, role, text string) engine.Message {
		m := base
		m.ID, m.Role, m.Text = id, role, text
		return m
	}
	// said turns a line's text into its message: without the harness's
	// markup, or, when the harness wrote all of it, a tool message.
	said := func(id, text string) engine.Message {
		clean, had := stripHarness(text)
		if had && clean == "" {
			return msg(id, RoleTool, clip(strings.TrimSpace(text)))
		}
		return msg(id, role, clean)
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
		return []engine.Message{said(l.UUID, s)}, nil
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
		out = append(out, said(l.UUID, strings.Join(texts, "\n\n")))
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

// clip keeps the first MaxToolText characters of a tool text.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxToolText {
		return s
	}
	rs := []rune(s)
	return fmt.Sprintf("%s [truncated: %d characters of tool output exceeded the %d-character limit]",
		string(rs[:MaxToolText]), len(rs)-MaxToolText, MaxToolText)
}
