package cli

import (
	"strings"
	"testing"
)

// memtrace batches lists a policy batch like every other, with the keys it
// set and the rollback that undoes it; after the rollback, the rollback
// itself (who, when, what it undid) and the batch as rolled back.
func TestBatchesListPolicyBatches(t *testing.T) {
	db := demoDB(t)
	p := writePolicy(t, "# 에피소드 반감기\nforgetting:\n  half_life_episode: 3d\n")
	mustRunCLI(t, "--db", db, "policy", "set", p)
	batch := policyBatch(t, db)
	out := mustRunCLI(t, "--db", db, "batches", "--limit", "3")
	line := lineWith(out, batch)
	if !strings.Contains(line, "policy: forgetting.half_life_episode: 14d → 3d") || !strings.Contains(line, "yes: memtrace rollback "+batch) {
		t.Fatalf("the policy batch's line:\n%s", out)
	}
	if first := strings.Split(strings.TrimSpace(out), "\n")[1]; !strings.Contains(first, batch) {
		t.Fatalf("the newest batch is not listed first:\n%s", out)
	}
	mustRunCLI(t, "--db", db, "rollback", batch, "--yes")
	out = mustRunCLI(t, "--db", db, "batches", "--limit", "3")
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) < 3 || !strings.Contains(rows[1], "policy undone: forgetting.half_life_episode: 14d → 3d") ||
		!strings.HasPrefix(rows[1], "rollback-") || !strings.Contains(rows[2], batch) || !strings.Contains(rows[2], "no: already rolled back") {
		t.Fatalf("after the rollback:\n%s", out)
	}
}

// lineWith is the first line of out containing s, "" when none does.
func lineWith(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
