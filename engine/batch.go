package engine

import (
	"fmt"
	"strings"
	"time"
)

// Batch kinds name the action that made a batch. The store records a
// batch's kind when it issues the id (Queries.NextBatchID) and BatchInfo
// and RollbackPlan carry it: read the kind there, never off the id. An id
// is KIND-TIME-SEQ, where SEQ is a counter kept in the database, so two
// batches never share an id even under a pinned clock.
const (
	BatchCapture = "capture" // one ingest/import run, one MCP capture
	BatchApprove = "approve" // one approval of proposals
	BatchApply   = "apply"   // one apply of approved proposals
	BatchCurator = "curator" // one curator action in the TUI
	BatchForget  = "forget"  // one memory_forget over MCP
	BatchImport  = "import"  // one import of Markdown tiers
	BatchAdd     = "add"     // one `memtrace add`

	// The review queue (review.go): one `review retry`, one store or one
	// skip of held captures by a curator.
	BatchReviewRetry = "review-retry"
	BatchReviewStore = "review-store"
	BatchReviewSkip  = "review-skip"

	// BatchRollback is the batch of one rollback (Queries.RollbackBatch);
	// its BatchInfo.RollbackOf names the batch it undid.
	BatchRollback = "rollback"
)

// SettingClock is the settings key of a database's pinned clock (RFC 3339).
// A demo or fixture database pins "now" so that what it remembers does not
// depend on the day it is opened; every time the product writes — audit
// rows, batch ids, created and accessed times — is taken from it.
const SettingClock = "clock.now"

// FormatBatchID is the one spelling of a batch id: kind, the time of the
// clock, and the database's batch counter.
func FormatBatchID(kind string, at time.Time, seq int64) string {
	return fmt.Sprintf("%s-%s-%d", kind, at.UTC().Format("20060102T150405Z"), seq)
}

// StoreBatchForm reports whether id has the form of an id the store issues
// or may issue later — FormatBatchID's KIND-TIME-SEQ of any kind, or a
// rollback's "rollback:<batch>" — so that a caller-chosen id (`memtrace
// apply --batch ID`) of that form is refused: the store's counter would
// hand the same id to a later batch, and a rollback of it would undo both.
func StoreBatchForm(id string) bool {
	if strings.HasPrefix(id, "rollback:") {
		return true
	}
	// KIND-20060102T150405Z-SEQ: the last two dash-separated fields.
	i := strings.LastIndexByte(id, '-')
	if i <= 0 || i == len(id)-1 || strings.Trim(id[i+1:], "0123456789") != "" {
		return false
	}
	rest := id[:i]
	j := strings.LastIndexByte(rest, '-')
	if j <= 0 {
		return false
	}
	_, err := time.Parse("20060102T150405Z", rest[j+1:])
	return err == nil
}

// BatchEffect counts what a batch did (or what its rollback would do), one
// kind per changed memory; see ClassifyChange.
type BatchEffect struct {
	Created     int `json:"created,omitempty"`
	Quarantined int `json:"quarantined,omitempty"`
	Restored    int `json:"restored,omitempty"` // made active again
	Archived    int `json:"archived,omitempty"`
	Moved       int `json:"moved,omitempty"` // changed tier
	Retyped     int `json:"retyped,omitempty"`
	Updated     int `json:"updated,omitempty"`    // content, importance, scope, statistics
	Superseded  int `json:"superseded,omitempty"` // linked to a newer memory (superseded_by set)
	Unlinked    int `json:"unlinked,omitempty"`   // supersession link removed: current again
	Kept        int `json:"kept,omitempty"`       // keep decisions recorded (no change to the memory)
	Rejected    int `json:"rejected,omitempty"`   // proposals a curator rejected (no change to any memory)
	Erased      int `json:"erased,omitempty"`     // erased by a curator (engine.StatusErased): never undone
	Reopened    int `json:"reopened,omitempty"`   // rejected proposals a rollback reopened (no change to any memory)
}

// Change kinds ClassifyChange returns.
const (
	ChangeCreated     = "created"
	ChangeQuarantined = "quarantined"
	ChangeRestored    = "restored"
	ChangeArchived    = "archived"
	ChangeMoved       = "moved"
	ChangeRetyped     = "retyped"
	ChangeUpdated     = "updated"
	ChangeSuperseded  = "superseded"
	ChangeUnlinked    = "unlinked"
)

// ClassifyChange names the most telling difference between a memory before
// and after a change: created (no before), then a status change
// (quarantined, restored, archived), a tier move, a retype, any other
// difference (updated). It returns "" when the two states are the same.
func ClassifyChange(before, after *Memory) string {
	switch {
	case after == nil:
		return ""
	case before == nil:
		return ChangeCreated
	case before.Status != after.Status:
		switch after.Status {
		case StatusQuarantined:
			return ChangeQuarantined
		case StatusArchived:
			return ChangeArchived
		case StatusErased:
			return ChangeErased
		default:
			return ChangeRestored
		}
	case before.Tier != after.Tier:
		return ChangeMoved
	case before.Type != after.Type:
		return ChangeRetyped
	case before.SupersededBy != after.SupersededBy || !before.ValidTo.Equal(after.ValidTo):
		if after.SupersededBy != 0 {
			return ChangeSuperseded
		}
		return ChangeUnlinked
	case before.Content != after.Content || before.Importance != after.Importance || before.Scope != after.Scope ||
		before.Kind != after.Kind || before.OrigType != after.OrigType || before.AccessCount != after.AccessCount ||
		before.Key != after.Key:
		return ChangeUpdated
	}
	return ""
}

// Add counts one change of kind (a ClassifyChange result).
func (b *BatchEffect) Add(kind string) {
	switch kind {
	case ChangeCreated:
		b.Created++
	case ChangeQuarantined:
		b.Quarantined++
	case ChangeRestored:
		b.Restored++
	case ChangeArchived:
		b.Archived++
	case ChangeMoved:
		b.Moved++
	case ChangeRetyped:
		b.Retyped++
	case ChangeUpdated:
		b.Updated++
	case ChangeSuperseded:
		b.Superseded++
	case ChangeUnlinked:
		b.Unlinked++
	case ChangeErased:
		b.Erased++
	}
}

// Changed is the number of memories changed (keep decisions excluded).
func (b BatchEffect) Changed() int {
	return b.Created + b.Quarantined + b.Restored + b.Archived + b.Moved + b.Retyped + b.Updated +
		b.Superseded + b.Unlinked + b.Erased
}

// String is the effect for people: "created 141, quarantined 2"; "no change"
// when there is none.
func (b BatchEffect) String() string {
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{b.Created, "created"}, {b.Quarantined, "quarantined"}, {b.Restored, "restored"}, {b.Archived, "archived"},
		{b.Moved, "moved"}, {b.Retyped, "retyped"}, {b.Updated, "updated"},
		{b.Superseded, "superseded"}, {b.Unlinked, "unlinked"}, {b.Erased, "erased"}, {b.Kept, "kept"}, {b.Rejected, "rejected"}, {b.Reopened, "reopened"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p.word, p.n))
		}
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, ", ")
}

// RollbackPlan is what rolling back a batch would do, computed without
// writing: the confirmation of the CLI and the TUI shows it.
type RollbackPlan struct {
	Batch string `json:"batch"`
	// Actor made the batch; At is its first audit row.
	Actor string    `json:"actor"`
	At    time.Time `json:"at"`
	// Memories the batch touched; Effect is what the rollback would do to
	// them (a memory the batch created is quarantined, since nothing is
	// deleted); Unchanged are already as the rollback would leave them.
	Memories  int         `json:"memories"`
	Effect    BatchEffect `json:"effect"`
	Unchanged int         `json:"unchanged"`
	// Proposals of the batch that are applied and would become rolled_back.
	Proposals int `json:"proposals"`
	// Rejected are the proposals the batch rejected that would be open
	// again (each back in the status it had before the rejection).
	Rejected int `json:"rejected,omitempty"`
	// RolledBack: the batch was rolled back already. Blocked lists later
	// changes that still stand and must be rolled back first.
	RolledBack bool     `json:"rolled_back"`
	Blocked    []string `json:"blocked,omitempty"`
	// Kind is the batch's kind (see BatchInfo.Kind).
	Kind   string `json:"kind,omitempty"`
	Policy bool   `json:"policy,omitempty"` // a policy batch: the rollback restores the previous policy
}

// CanRollback reports whether the rollback may run and would change
// something.
func (p *RollbackPlan) CanRollback() bool {
	return !p.RolledBack && len(p.Blocked) == 0 && (p.Effect.Changed() > 0 || p.Proposals > 0 || p.Rejected > 0 || p.Policy)
}

// LargeRollback is the number of memories above which rolling back a
// capture batch needs a second, explicit confirmation (`--force` on the
// command line, a second key in the TUI): such a batch is usually a whole
// ingest run, and its rollback quarantines everything it remembered.
const LargeRollback = 5

// NeedsForce reports whether the plan needs the second confirmation: a
// capture or import batch of more than LargeRollback memories, or any
// rollback that would quarantine more than that.
func (p *RollbackPlan) NeedsForce() bool {
	bulk := p.Kind == BatchCapture || p.Kind == BatchImport
	return (bulk && p.Effect.Changed() > LargeRollback) || p.Effect.Quarantined > LargeRollback
}
