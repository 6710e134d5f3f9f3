package mcpserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// recallResult shapes one recall as memory_recall returns it. Every memory
// text appears once in the result, whatever the detail but "full":
//
//   - texts (the default): the structured result carries each memory's id,
//     date and text; the text content is one summary line without memory
//     text. Claude Code and VS Code hand the model only the structured
//     result when a tool declares an output schema, so the texts must be
//     there; repeating them in the text content would double the cost for
//     every client.
//   - ids: the memory block is the text content, the structured result
//     names the memories by id, key, type and channel — for clients that
//     forward only the text content.
//   - full: both, and the block again as prompt.
func (s *Server) recallResult(tr *engine.Trace, traceID int64, detail string) (*mcp.CallToolResult, RecallOut) {
	if detail == "" {
		detail = s.detail
	}
	out := RecallOut{TraceID: traceID, PromptChars: tr.PromptChars, Survivors: make([]RecallSurvivor, 0, len(tr.Survivors)),
		Guaranteed: tr.Guaranteed, ReadOnly: tr.ReadOnly, At: tr.At}
	texts, ids := detail != DetailIDs, detail != DetailTexts
	for _, sv := range tr.Survivors {
		rs := RecallSurvivor{ID: sv.ID, SupersededBy: sv.SupersededBy, ValidTo: sv.ValidTo}
		if ids {
			rs.Key, rs.Type, rs.Channel = sv.Key, sv.Type, sv.Channel
		}
		if texts {
			// The text as the block shows it: the block's own sanitising,
			// then the terminal-safety boundary every output passes.
			rs.Text = safetext.SanitizeLine(engine.SanitizeText(sv.Text))
			if m, ok := s.e.Memory(sv.ID); ok && !m.CreatedAt.IsZero() {
				rs.Date = m.CreatedAt.UTC().Format("2006-01-02")
			}
		}
		out.Survivors = append(out.Survivors, rs)
	}
	var content string
	switch detail {
	case DetailTexts:
		content = recallSummary(len(out.Survivors))
	default:
		if detail == DetailFull {
			out.Prompt = tr.Prompt
		}
		content = tr.Prompt
		if strings.TrimSpace(content) == "" {
			content = "(no memories matched)"
		}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: content}}}, out
}

// ParseRecallDetail checks a default detail given on the command line.
func ParseRecallDetail(v string) (string, error) {
	if v == "" {
		return DetailTexts, nil
	}
	if !slices.Contains(Details, v) {
		return "", fmt.Errorf("recall detail %q is not one of %s", v, strings.Join(Details, ", "))
	}
	return v, nil
}

// recallSummary is the text content of a default recall: no memory text
// (that is in the structured result), and what to do when the client shows
// the model only this line. It names no count: the survivors say how many,
// and a client that forwards both would read the count twice (issue #30:
// the fixed part of a short result is most of its size).
func recallSummary(n int) string {
	if n == 0 {
		return "no memories matched"
	}
	return `detail "ids" puts the texts here`
}
