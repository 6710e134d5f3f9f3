package curate

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/policy"
)

// Policy batches in the history: `memtrace batches` and the Curate tab's
// history list them beside the audited memory batches, each with the keys
// it set, and a rolled-back one with its rollback (who, when) — the audit
// trail of a policy lives in its records (policyRecord), not in the
// memory audit log.

// settingPolicyBatches lists every policy batch ever recorded, oldest
// first, one id a line (rolled-back ones too: policy.last forgets them).
const settingPolicyBatches = "policy.batches"

// issuedAt is when the store issued batch: the time in its id
// (KIND-TIME-SEQ, from the store's clock, pinned or not); else the
// database's pinned clock, else now.
func issuedAt(ctx context.Context, q engine.Queries, batch string) (time.Time, error) {
	parts := strings.Split(batch, "-")
	if len(parts) >= 3 {
		if t, err := time.Parse("20060102T150405Z", parts[len(parts)-2]); err == nil {
			return t.UTC(), nil
		}
	}
	v, err := q.GetSetting(ctx, engine.SettingClock)
	if err != nil || v == "" {
		return time.Now().UTC(), err
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), nil
	}
	return time.Now().UTC(), nil
}

// policyBatchIDs are the policy batches db records, oldest first: the
// index, then (a database written before the index) the chain back from
// the current one.
func policyBatchIDs(ctx context.Context, q engine.Queries) ([]string, error) {
	ids, err := settingLines(ctx, q, settingPolicyBatches)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	last, err := q.GetSetting(ctx, settingPolicyLast)
	if err != nil {
		return nil, err
	}
	var chain []string
	for id := last; id != "" && !seen[id]; {
		seen[id] = true
		chain = append([]string{id}, chain...)
		rec, err := readPolicyRecord(ctx, q, id)
		if err != nil {
			return nil, err
		}
		id = rec.PrevBatch
	}
	return append(chain, ids...), nil
}

// policyChanges says what a policy batch set: its keys, "key: before →
// after" (the texts decoded; one that does not decode says so).
func policyChanges(rec *policyRecord) []string {
	before, errB := policy.Decode([]byte(rec.Before))
	after, errA := policy.Decode([]byte(rec.After))
	if errB != nil || errA != nil {
		return []string{"(a recorded policy text does not decode)"}
	}
	var out []string
	for _, c := range policy.Diff(before, after) {
		out = append(out, c.Key+": "+c.A+" → "+c.B)
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// PolicyBatches are db's policy batches, newest first, as history rows:
// each set (kind policy) and each rollback of one (kind rollback).
func PolicyBatches(ctx context.Context, q engine.Queries) ([]engine.BatchInfo, error) {
	ids, err := policyBatchIDs(ctx, q)
	if err != nil {
		return nil, err
	}
	last, err := q.GetSetting(ctx, settingPolicyLast)
	if err != nil {
		return nil, err
	}
	var out []engine.BatchInfo
	for _, id := range ids {
		rec, err := readPolicyRecord(ctx, q, id)
		if err != nil {
			return nil, err
		}
		keys := policyChanges(rec)
		b := engine.BatchInfo{Batch: id, Kind: BatchPolicy, Actor: rec.Actor, At: rec.At, Rows: len(keys),
			RolledBack: rec.RolledBack, Policy: keys}
		switch {
		case rec.RolledBack:
			b.WhyNot = "already rolled back"
		case id != last:
			b.WhyNot = "the policy changed after it (" + last + "); roll that back first"
		default:
			b.CanRollback = true
		}
		out = append(out, b)
		if rec.RolledBack {
			rb := rec.RollbackBatch
			if rb == "" {
				rb = "rollback:" + id // rolled back before rollbacks of a policy had ids
			}
			out = append(out, engine.BatchInfo{Batch: rb, Kind: engine.BatchRollback, RollbackOf: id,
				Actor: rec.RolledBackBy, At: rec.RolledBackAt, Rows: len(keys), Policy: keys,
				WhyNot: "set the policy again (memtrace policy set) to redo it"})
		}
	}
	// Newest first; at one time (a pinned clock) the later issued first.
	sort.SliceStable(out, func(i, j int) bool { return newer(out[i], out[j]) })
	return out, nil
}

// newer orders history rows: by time, then (at one time, as under a
// pinned clock) by the store's batch counter, the later issued first.
func newer(a, b engine.BatchInfo) bool {
	if !a.At.Equal(b.At) {
		return a.At.After(b.At)
	}
	return batchSeq(a.Batch) > batchSeq(b.Batch)
}

// batchSeq is the counter of a batch id the store issued (KIND-TIME-SEQ;
// a rollback:<batch> has its batch's), 0 for another id.
func batchSeq(id string) int64 {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return 0
	}
	n, err := strconv.ParseInt(id[i+1:], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// mergePolicy merges the policy rows (newest first) into out (newest
// first): each goes before the first row of out it is newer than.
func mergePolicy(out, pol []engine.BatchInfo) []engine.BatchInfo {
	merged := make([]engine.BatchInfo, 0, len(out)+len(pol))
	for _, b := range out {
		for len(pol) > 0 && newer(pol[0], b) {
			merged, pol = append(merged, pol[0]), pol[1:]
		}
		merged = append(merged, b)
	}
	return append(merged, pol...)
}

// mergeNewest merges extra (newest first) into out (newest first): each
// extra row goes before the first row of out that is older.
func mergeNewest(out, extra []engine.BatchInfo) []engine.BatchInfo {
	merged := make([]engine.BatchInfo, 0, len(out)+len(extra))
	for _, b := range out {
		for len(extra) > 0 && newer(extra[0], b) {
			merged, extra = append(merged, extra[0]), extra[1:]
		}
		merged = append(merged, b)
	}
	return append(merged, extra...)
}

// EffectText is the effect of a history row for people: what a policy
// batch set (or its rollback undid), else what the batch did to memories.
func EffectText(b engine.BatchInfo) string {
	switch {
	case len(b.Policy) > 0 && b.RollbackOf != "":
		return "policy undone: " + strings.Join(b.Policy, "; ")
	case len(b.Policy) > 0:
		return "policy: " + strings.Join(b.Policy, "; ")
	}
	return b.Effect.String()
}

// RecordedPolicy is the policy db records: its text decoded, or the
// defaults' zero Config when none is recorded.
func RecordedPolicy(ctx context.Context, q engine.Queries) (engine.Config, error) {
	text, err := q.GetSetting(ctx, SettingPolicy)
	if err != nil {
		return engine.Config{}, err
	}
	cfg, err := policy.Decode([]byte(text))
	if err != nil {
		return cfg, engine.Errorf(engine.EINVALID, "the policy this database records does not decode (%v); record a valid one with `memtrace policy set FILE` or roll the last policy batch back", err)
	}
	return cfg, nil
}
