package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
)

// Kind says how a memory ages: facts decay slowly, episodes fast.
type Kind string

const (
	KindFact    Kind = "fact"
	KindEpisode Kind = "episode"
)

// Types are the memory labels the judges assign, retype offers and `add`
// takes (an import may carry others).
func Types() []string {
	return []string{"preference", "health", "date", "milestone", "habit", "achievement", "gift",
		"shared_thing", "current_project", "rule", "correction", "note"}
}

// Status is the lifecycle state of a memory. Nothing is ever hard-deleted:
// noise is quarantined (reversibly, keeping orig_type) and old memories are
// archived.
type Status string

const (
	StatusActive      Status = "active"
	StatusQuarantined Status = "quarantined"
	StatusArchived    Status = "archived"
)

// Tier is where a memory lives in the self-improving hierarchy: HOT is always
// a candidate for the guaranteed channel, WARM is loaded per project/domain,
// COLD is the monthly archive.
type Tier string

const (
	TierHot  Tier = "hot"
	TierWarm Tier = "warm"
	TierCold Tier = "cold"
)

// Scope values: "global", "project:NAME" or "domain:NAME".
const ScopeGlobal = "global"

// ProjectScope returns the scope string of a project, or global for "".
func ProjectScope(project string) string {
	if project == "" {
		return ScopeGlobal
	}
	return "project:" + project
}

// Memory is one remembered item. Times are UTC.
type Memory struct {
	ID             int64     `json:"id"`
	Key            string    `json:"key"` // stable external id: the id of the message it came from
	Content        string    `json:"content"`
	Kind           Kind      `json:"kind"`
	Type           string    `json:"type"`
	OrigType       string    `json:"orig_type"`
	Status         Status    `json:"status"`
	Tier           Tier      `json:"tier"`
	Scope          string    `json:"scope"`
	Importance     float64   `json:"importance"`
	Role           string    `json:"role"`
	Session        string    `json:"session"`
	CreatedAt      time.Time `json:"created_at"`
	LastAccessedAt time.Time `json:"last_accessed_at"`
	AccessCount    int       `json:"access_count"`
	Boost          float64   `json:"boost"`
	BoostAt        time.Time `json:"boost_at"`
	Hash           string    `json:"hash"`
	// SupersededBy is the newer memory that replaced this fact (0: none).
	// The memory keeps its status: supersession is a link, not a deletion,
	// and unlinking (or rolling back the batch that linked) makes it current
	// again. ValidTo is when the fact stopped holding (valid time);
	// SupersededAt is when the link was recorded (transaction time). See
	// supersede.go.
	SupersededBy int64     `json:"superseded_by,omitempty"`
	ValidTo      time.Time `json:"valid_to,omitzero"`
	SupersededAt time.Time `json:"superseded_at,omitzero"`
	// Embedding is the vector of Content under Embedder; derived data, never
	// part of the audit trail or the JSON contract.
	Embedding []float32 `json:"-"`
	Embedder  string    `json:"-"`
	// Seq increases on every write of the row; readers use it to pick up
	// changes made by another process (the MCP server writing while the TUI
	// reads).
	Seq int64 `json:"-"`
}

// ContentHash is the normalised SHA-256 of a memory's text, used to spot
// exact duplicates cheaply before the similarity check.
func ContentHash(text string) string {
	norm := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:])
}

// Message is one line of the message JSONL format and the unit the capture
// pipeline is offered.
type Message struct {
	ID      string    `json:"id,omitempty"`
	Session string    `json:"session"`
	Role    string    `json:"role"`
	Text    string    `json:"text"`
	At      time.Time `json:"at"`
	Project string    `json:"project,omitempty"`
	// Branch is the version-control branch the message was written on
	// (Claude Code's gitBranch), kept on the capture.
	Branch string `json:"branch,omitempty"`
	// Correction says the sender marks the message as a correction
	// (memory_correct): its lesson is recorded without a marker and
	// without the length floors (see capture.Correct).
	Correction bool `json:"correction,omitempty"`
	// LessonContext is what the corrected agent says was corrected
	// (memory_correct's context): a lesson first seen in this message
	// keeps it as its context in place of the session it was said in. It
	// is not part of the JSONL format.
	LessonContext string `json:"-"`
}

// MemoryFilter selects memories. Nil pointers and empty strings mean "any".
type MemoryFilter struct {
	IDs     []int64
	Status  *Status
	Type    *string
	Kind    *Kind
	Tier    *Tier
	Scope   *string
	Text    string // case-insensitive substring of content
	Key     string
	Session string
	// Superseded keeps only memories linked to a newer one (superseded_by
	// set), at any time.
	Superseded bool
	// SupersededBy keeps only memories one of these ids supersedes (their
	// superseded_by among them): the older facts they replaced.
	SupersededBy []int64
	Limit        int // 0: no limit
	Offset       int
}

// Actor names who made a change, and the batch it belongs to. Every mutation
// of a memory is written to the audit log under an actor; a batch can be
// rolled back as a whole.
type Actor struct {
	Name  string // "capture", "curator", "judge", "heartbeat", "rollback", "mcp" …
	Batch string // empty: a one-off change, still audited
}

// AuditEntry is one row of the audit log: the memory before and after a
// mutation, as JSON of Memory.
type AuditEntry struct {
	ID       int64     `json:"id"`
	Batch    string    `json:"batch"`
	Actor    string    `json:"actor"`
	Action   string    `json:"action"`
	MemoryID int64     `json:"memory_id"`
	Before   *Memory   `json:"before,omitempty"`
	After    *Memory   `json:"after,omitempty"`
	At       time.Time `json:"at"`
}

// Quarantine sets m quarantined, keeping the type it had in OrigType so
// that a restore can give it back (the content and type are untouched).
// It reports false, changing nothing, when m is quarantined already. It is
// the one quarantine rule: curators, proposals, memory_forget and rollback
// all quarantine through it.
func (m *Memory) Quarantine() bool {
	if m.Status == StatusQuarantined {
		return false
	}
	if m.OrigType == "" {
		m.OrigType = m.Type
	}
	m.Status = StatusQuarantined
	return true
}

// Restore makes m active again; false, changing nothing, when it is.
func (m *Memory) Restore() bool {
	if m.Status == StatusActive {
		return false
	}
	m.Status = StatusActive
	return true
}
