package curate

import (
	"regexp"
	"slices"
	"sort"

	"memtrace/engine"
	"memtrace/engine/secret"
)

// AuditSecrets is the audit's look at secrets (issue 31), over every
// memory that is not erased: Redacted counts the placeholders the doors
// left in memory text, by type ("password" → 3); InClear counts the
// memories whose text still holds a value the table would redact (stored
// before redaction, or by hand outside memtrace), by pattern;
// InClearMemories is how many memories that is, and InClearIDs names the
// first few for `memtrace erase`.
type AuditSecrets struct {
	Redacted        []engine.ReasonCount `json:"redacted"`
	InClear         []engine.ReasonCount `json:"in_clear"`
	InClearMemories int                  `json:"in_clear_memories"`
	InClearIDs      []int64              `json:"in_clear_ids"`
}

// placeholderType finds the placeholders in a text; group 1 is the type.
var placeholderType = regexp.MustCompile(`\[secret:([a-z_]+)\]`)

func auditSecrets(e *engine.Engine) AuditSecrets {
	redacted, inClear := map[string]int{}, map[string]int{}
	out := AuditSecrets{Redacted: []engine.ReasonCount{}, InClear: []engine.ReasonCount{}, InClearIDs: []int64{}}
	e.EachMemory(func(m *engine.Memory) bool {
		if m.Status == engine.StatusErased {
			return true
		}
		for _, g := range placeholderType.FindAllStringSubmatch(m.Content, -1) {
			redacted[g[1]]++
		}
		if names := secret.Redact(m.Content).Names(); len(names) > 0 {
			for _, n := range names {
				inClear[n]++
			}
			out.InClearMemories++
			if len(out.InClearIDs) < auditExamples {
				out.InClearIDs = append(out.InClearIDs, m.ID)
			}
		}
		return true
	})
	slices.Sort(out.InClearIDs)
	out.Redacted, out.InClear = secretCounts(redacted), secretCounts(inClear)
	return out
}

// secretCounts are counts as rows of layer "secret", most first.
func secretCounts(counts map[string]int) []engine.ReasonCount {
	out := make([]engine.ReasonCount, 0, len(counts))
	for name, n := range counts {
		out = append(out, engine.ReasonCount{Layer: "secret", Reason: name, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Reason < out[j].Reason
	})
	return out
}
