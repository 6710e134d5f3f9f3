// Package wording holds the English the TUI and the CLI say about the
// engine's facts, so that the engine's types carry facts, not sentences.
package wording

import (
	"fmt"
	"strings"

	"memtrace/engine"
)

// RollbackPlan is the plan for a confirmation: "quarantine 141 memories
// created by this batch, restore 2".
func RollbackPlan(p *engine.RollbackPlan) string {
	var parts []string
	e := p.Effect
	add := func(n int, format string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf(format, n, plural(n)))
		}
	}
	add(e.Quarantined, "quarantine %d memor%s")
	add(e.Restored, "make %d memor%s active again")
	add(e.Archived, "archive %d memor%s")
	add(e.Moved, "move %d memor%s back to its tier")
	add(e.Retyped, "give %d memor%s back its type")
	add(e.Updated, "revert %d memor%s")
	add(e.Superseded, "mark %d memor%s superseded again")
	add(e.Unlinked, "make %d superseded memor%s current again (link removed)")
	if p.Proposals > 0 {
		parts = append(parts, fmt.Sprintf("mark %s rolled back", Count(p.Proposals, "proposal")))
	}
	if p.Rejected > 0 {
		parts = append(parts, fmt.Sprintf("reopen %s as they were before", Count(p.Rejected, "rejected proposal")))
	}
	if p.Policy {
		parts = append(parts, "restore the policy the database ran with before it")
	}
	if len(parts) == 0 {
		return "change nothing"
	}
	return strings.Join(parts, ", ")
}

func plural(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// Memories counts memories in English: "1 memory", "3 memories".
func Memories(n int) string { return Count(n, "memory") }
