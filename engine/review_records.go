package engine

import (
	"time"
)

// The review queue holds the captures the judge could not decide: its
// answer did not validate (needs_review). A held message is never lost —
// it is not dropped and not acted on; it waits, with the validation
// reason, until the judge is asked again (Capturer.Reoffer) or a curator
// stores or skips it by hand (Engine.StoreReviews, Engine.SkipReviews).

// OutcomeHeld is the outcome of a capture the judge held as needs_review:
// it waits in the review queue. It is neither stored nor dropped.
const OutcomeHeld = "held"

// LayerReview names the review queue in decision trails and captures: a
// re-offer of a held message, or a curator's decision on it.
const LayerReview = "review"

// Review item statuses.
const (
	ReviewHeld       = "held"
	ReviewStored     = "stored"     // became a memory (judge on retry, or curator)
	ReviewReinforced = "reinforced" // on retry it duplicated an active memory
	ReviewDropped    = "dropped"    // on retry the judge (or a filter) dropped it
	ReviewSkipped    = "skipped"    // the curator decided it is not a memory
)

// ReviewItem is one held capture.
type ReviewItem struct {
	ID        int64     `json:"id"`
	MessageID string    `json:"message_id"`
	Session   string    `json:"session"`
	Role      string    `json:"role"`
	Project   string    `json:"project,omitempty"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
	Reason    string    `json:"reason"`          // why the judge's answer was held
	Judge     string    `json:"judge,omitempty"` // "judge:<model>" that held it last
	Attempts  int       `json:"attempts"`        // offers to the judge that ended held
	Status    string    `json:"status"`
	MemoryID  int64     `json:"memory_id,omitempty"`
	DecidedBy string    `json:"decided_by,omitempty"`
	DecidedAt time.Time `json:"decided_at,omitzero"`
	Batch     string    `json:"batch,omitempty"`
	Note      string    `json:"note,omitempty"` // the decision's reason
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Message is the held message as it was offered.
func (r *ReviewItem) Message() Message {
	return Message{ID: r.MessageID, Session: r.Session, Role: r.Role, Text: r.Text, At: r.At, Project: r.Project}
}

// Open reports whether a curator or the judge may still decide the item:
// it is held, or a curator skipped it (a skip can be reconsidered), or the
// judge dropped it on a retry.
func (r *ReviewItem) Open() bool {
	return r.Status == ReviewHeld || r.Status == ReviewSkipped || r.Status == ReviewDropped
}

// ReviewFilter selects review items; zero fields select everything.
type ReviewFilter struct {
	Status string
	IDs    []int64
	Batch  string
	Limit  int
	Offset int
}
