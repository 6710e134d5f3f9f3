package engine

import (
	"encoding/json"
	"time"
)

// Layer names of the capture pipeline, as they appear in decision trails,
// the captures table and `ingest --json`.
const (
	LayerL1      = "l1"
	LayerL2      = "l2"
	LayerJudge   = "judge"
	LayerGate    = "gate"
	LayerDedupe  = "dedupe"
	LayerCorrect = "correction"
	LayerStore   = "store"
)

// Decision is one step of a capture's decision trail.
// The jsonschema tags describe the fields in the MCP tools' output schemas.
type Decision struct {
	Layer   string `json:"layer" jsonschema:"the pipeline step: l1, l2, judge, gate, dedupe, correct …"`
	Verdict string `json:"verdict" jsonschema:"pass, drop, store, reinforce, label, unlabel, record …"`
	Reason  string `json:"reason,omitempty" jsonschema:"why, in words"`
	Pattern string `json:"pattern,omitempty" jsonschema:"the named pattern or lesson key that matched, when one did"`
}

// Outcome of a capture.
const (
	OutcomeStored     = "stored"
	OutcomeReinforced = "reinforced"
	OutcomeDropped    = "dropped"
)

// CaptureRecord is every message offered to the capture pipeline, with the
// verdict of each layer. A dropped message is logged, never silently lost.
type CaptureRecord struct {
	ID        int64      `json:"id"`
	MessageID string     `json:"message_id"`
	Session   string     `json:"session"`
	Role      string     `json:"role"`
	Project   string     `json:"project,omitempty"`
	Branch    string     `json:"branch,omitempty"` // version-control branch, when the source records one
	Text      string     `json:"text"`
	At        time.Time  `json:"at"`
	Outcome   string     `json:"outcome"`
	DroppedBy string     `json:"dropped_by,omitempty"` // layer that dropped it
	Reason    string     `json:"reason,omitempty"`     // named pattern or judge reason
	MemoryID  int64      `json:"memory_id,omitempty"`
	Trail     []Decision `json:"trail"`
	CreatedAt time.Time  `json:"created_at"`
}

// CaptureFilter selects capture records.
type CaptureFilter struct {
	Outcome   string
	DroppedBy string
	Reason    string
	Text      string
	Limit     int
	Offset    int
}

// ReasonCount is a count of captures dropped by one layer for one reason.
type ReasonCount struct {
	Layer  string `json:"layer"`
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Correction statuses.
const (
	CorrectionPending   = "pending"
	CorrectionCandidate = "candidate"
	CorrectionPromoted  = "promoted"
	CorrectionRejected  = "rejected"
	// CorrectionSuperseded: a later lesson on the same subject prescribes
	// the opposite (another value or polarity) and replaces it.
	CorrectionSuperseded = "superseded"
)

// CorrectionStatuses lists every correction status, in lifecycle order.
func CorrectionStatuses() []string {
	return []string{CorrectionPending, CorrectionCandidate, CorrectionPromoted, CorrectionRejected, CorrectionSuperseded}
}

// PromotionThreshold is how many times the same lesson must be seen before it
// becomes a promotion candidate (seed 002).
const PromotionThreshold = 3

// Correction is a lesson learnt from explicit corrections and stated
// preferences; the same lesson seen PromotionThreshold times becomes a
// candidate for the HOT tier.
type Correction struct {
	ID          int64        `json:"id"`
	LessonKey   string       `json:"lesson_key"`
	Context     string       `json:"context"`
	Correction  string       `json:"correction"`
	Lesson      string       `json:"lesson"`
	Scope       string       `json:"scope"`
	Count       int          `json:"count"`
	FirstSeen   time.Time    `json:"first_seen"`
	LastSeen    time.Time    `json:"last_seen"`
	Status      string       `json:"status"`
	Occurrences []Occurrence `json:"occurrences"`
}

// Occurrence is one sighting of a lesson.
type Occurrence struct {
	MessageID string    `json:"message_id,omitempty"`
	Session   string    `json:"session,omitempty"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
}

// Proposal kinds, proposers and statuses.
const (
	ProposalQuarantine = "quarantine"
	ProposalRetype     = "retype"
	ProposalRestore    = "restore"
	ProposalPromote    = "promote"
	ProposalDemote     = "demote"
	ProposalArchive    = "archive"

	ProposerJudge     = "judge"
	ProposerHeartbeat = "heartbeat"
	ProposerRule      = "rule"
	ProposerCurator   = "curator"

	ProposalPending    = "pending"
	ProposalApproved   = "approved"
	ProposalRejected   = "rejected"
	ProposalApplied    = "applied"
	ProposalRolledBack = "rolled_back"
	ProposalReview     = "needs_review"
	// ProposalWithdrawn is the status of a proposal an applied one made
	// moot (Proposal.WithdrawnBy); rolling the apply back reopens it.
	ProposalWithdrawn = "withdrawn"
)

// Proposal is a change somebody (the judge, the heartbeat, a rule) suggests
// and a curator decides. Nothing in memories changes until it is approved and
// applied.
type Proposal struct {
	ID         int64           `json:"id"`
	Kind       string          `json:"kind"`
	MemoryID   int64           `json:"memory_id,omitempty"`
	TargetType string          `json:"target_type,omitempty"` // retype target, or target tier/scope for moves
	Proposer   string          `json:"proposer"`
	Verdict    json.RawMessage `json:"verdict,omitempty"`
	Model      string          `json:"model,omitempty"`
	PromptHash string          `json:"prompt_hash,omitempty"`
	Confidence float64         `json:"confidence"`
	Reason     string          `json:"reason"`
	Status     string          `json:"status"`
	DecidedBy  string          `json:"decided_by,omitempty"`
	DecidedAt  time.Time       `json:"decided_at,omitzero"`
	Batch      string          `json:"batch,omitempty"`
	CreatedAt  time.Time       `json:"created_at"`
	// PriorStatus is the status a curator's rejection, or a withdrawal,
	// moved the proposal from; rolling back that batch returns it there.
	PriorStatus string `json:"prior_status,omitempty"`
	// WithdrawnBy is the proposal whose apply made this one moot (status
	// withdrawn; Batch is that apply's batch).
	WithdrawnBy int64 `json:"withdrawn_by,omitempty"`
	// RejectNote is the curator's reason for a rejection (status
	// rejected); rolling the rejection back clears it.
	RejectNote string `json:"reject_note,omitempty"`
}

// ProposalFilter selects proposals.
type ProposalFilter struct {
	Kind     string
	Status   string
	Proposer string
	MemoryID int64
	Batch    string
	Limit    int
}

// StoredTrace is a recall trace kept for later inspection (recalls made by an
// agent through MCP, opened afterwards in the TUI).
type StoredTrace struct {
	ID        int64           `json:"id"`
	Query     string          `json:"query"`
	Session   string          `json:"session,omitempty"`
	Source    string          `json:"source"` // "mcp", "cli", "tui"
	At        time.Time       `json:"at"`
	Trace     json.RawMessage `json:"trace"`
	CreatedAt time.Time       `json:"created_at"`
}

// CaptureResult is what the capture pipeline decided for one message.
type CaptureResult struct {
	MessageID string `json:"message_id,omitempty"`
	Outcome   string `json:"outcome"` // stored | reinforced | dropped | held (needs_review: in the review queue) | skipped
	MemoryID  int64  `json:"memory_id,omitempty"`
	Key       string `json:"key,omitempty"`
	Kind      Kind   `json:"kind,omitempty"`
	Type      string `json:"type,omitempty"`
	DroppedBy string `json:"dropped_by,omitempty"` // l1 | l2 | judge
	Reason    string `json:"reason,omitempty"`
	Decider   string `json:"decider,omitempty"` // "rules" when no judge is configured, else "judge:<model>"
	// JudgeError is set when the judge could not be asked or broke, and the
	// rules decided in its place (the trail says why).
	JudgeError bool       `json:"judge_error,omitempty"`
	Trail      []Decision `json:"trail"`
	// Correction is set when the message recorded (or counted) a lesson.
	Correction *Correction `json:"correction,omitempty"`
	// Supersedes lists the older memories this capture superseded (the
	// supersession rule, supersede_rule.go).
	Supersedes []SupersedeInfo `json:"supersedes,omitempty"`
	// Statements lists the memories of a message that held several
	// independent statements, the first under the message's key, the
	// others under KEY#2, KEY#3 …; empty for a message of one statement.
	Statements []StatementResult `json:"statements,omitempty"`
}

// StatementResult is one statement of a message split into several.
type StatementResult struct {
	Key      string `json:"key" jsonschema:"the statement's key: the message's key for the first, KEY#2, KEY#3 … for the others"`
	MemoryID int64  `json:"memory_id,omitempty" jsonschema:"the memory stored or reinforced for the statement"`
	Outcome  string `json:"outcome" jsonschema:"stored, or reinforced (it duplicated an active memory)"`
	Kind     Kind   `json:"kind,omitempty" jsonschema:"fact or episode"`
	Type     string `json:"type,omitempty" jsonschema:"the statement's label: preference, health, date, rule, note …"`
}

// LineError is a malformed input line, reported by number while the rest of
// the input is still processed.
type LineError struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// IngestStats is the `ingest --json` contract.
type IngestStats struct {
	Offered    int            `json:"offered"`
	Stored     int            `json:"stored"`
	Reinforced int            `json:"reinforced"`
	Dropped    map[string]int `json:"dropped"` // l1, l2, judge
	// Skipped counts offered messages whose id was captured before (an
	// ingest run again).
	Skipped int `json:"skipped"`
	// NeedsReview counts messages the judge held (its answer did not
	// validate): they wait in the review queue, neither stored nor dropped.
	// offered = stored + reinforced + dropped.l1 + dropped.l2 +
	// dropped.judge + skipped + needs_review.
	NeedsReview int `json:"needs_review"`
	// JudgeErrors counts offered messages the judge could not answer
	// (unreachable, timed out, broke): the rules decided them, so each is
	// also counted in stored, reinforced or dropped — not an addend.
	JudgeErrors int         `json:"judge_errors"`
	Errors      []LineError `json:"errors"`
	// Redacted: messages whose secret values became placeholders, by pattern.
	Redacted map[string]int `json:"redacted,omitempty"`
}

// ProposalKeep is the record of a "keep" verdict: applying it changes no
// memory, but it lets the curator see (and sample) what the judge kept.
const ProposalKeep = "keep"
