package engine

import (
	"slices"
	"time"
)

// Knowledge updates. A newer memory supersedes an older fact about the same
// subject ("I moved to Busan" supersedes "I live in Seoul"). Nothing is
// deleted: the old memory keeps its status and gains SupersededBy, ValidTo
// (when it stopped holding) and SupersededAt (when the link was recorded).
// The link is written as an audited update of the old memory in the batch of
// the capture or curator action that made it, so rolling that batch back
// removes it; Unsupersede removes it by hand.
//
// Recall: at stage exclude a memory superseded at the query's time (both
// ValidTo and SupersededAt at or before q.At) is dropped (DropSuperseded),
// unless the query asks about the past (AsksAboutFormer) or
// q.IncludeSuperseded; then it is recalled and labelled former, and its
// prompt line carries "[until DATE]". With q.At before the update the old
// fact is current and the new one does not exist yet.

// LayerSupersede is the capture trail's layer of the supersession rule.
const LayerSupersede = "supersede"

// SupersedeInfo says which older memory a capture superseded and why.
type SupersedeInfo struct {
	ID      int64     `json:"id" jsonschema:"the superseded memory's id"`
	Key     string    `json:"key,omitempty" jsonschema:"its key (the id of the message it came from)"`
	Text    string    `json:"text" jsonschema:"its text, the fact that no longer holds"`
	Subject string    `json:"subject" jsonschema:"the subject words both memories share (e.g. car, 차)"`
	Marker  string    `json:"marker" jsonschema:"the change marker that made it an update (e.g. moved to, 바꿨어)"`
	ValidTo time.Time `json:"valid_to" jsonschema:"when the old fact stopped holding (RFC 3339)"`
	// By is who decided: "rule" (the supersession rule) or the capture
	// judge ("judge:MODEL"), which was shown the old memory as a candidate
	// and named it; then Subject is empty unless the rule chose it too.
	By string `json:"by,omitempty" jsonschema:"who decided: rule, or judge:MODEL (the capture judge named it among the candidates it was shown)"`
}

// IsSupersededAt reports whether m is superseded as of at: linked, the old
// fact stopped holding at or before at, and the link was recorded by then.
func (m *Memory) IsSupersededAt(at time.Time) bool {
	return m.SupersededBy != 0 && !m.ValidTo.After(at) && !m.SupersededAt.After(at)
}

// IsFormerAt reports whether m is a former fact at time at (superseded by
// then). The zero at means "now, whatever the clock": any link counts.
func (m Memory) IsFormerAt(at time.Time) bool {
	if at.IsZero() {
		return m.SupersededBy != 0
	}
	return m.IsSupersededAt(at)
}

// Supersedes returns the ids of the memories id supersedes (older facts it
// replaced), in id order.
func (e *Engine) Supersedes(id int64) []int64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return slices.Clone(e.supersedes[id])
}

// indexSupersession keeps the reverse index (newer → older) current when
// the cached copy of a memory changes from old to m. Caller holds mu.
func (e *Engine) indexSupersession(old, m *Memory) {
	if old != nil && old.SupersededBy != 0 && (m == nil || m.SupersededBy != old.SupersededBy) {
		ids := e.supersedes[old.SupersededBy]
		if i := slices.Index(ids, old.ID); i >= 0 {
			ids = slices.Delete(ids, i, i+1)
		}
		if len(ids) == 0 {
			delete(e.supersedes, old.SupersededBy)
		} else {
			e.supersedes[old.SupersededBy] = ids
		}
	}
	if m != nil && m.SupersededBy != 0 && (old == nil || old.SupersededBy != m.SupersededBy) {
		ids := e.supersedes[m.SupersededBy]
		if !slices.Contains(ids, m.ID) {
			ids = append(ids, m.ID)
			slices.Sort(ids)
		}
		e.supersedes[m.SupersededBy] = ids
	}
}
