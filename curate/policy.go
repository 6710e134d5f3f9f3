package curate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
)

// The database's policy (SettingPolicy) is changed only here, as a
// batch of kind BatchPolicy: SetPolicy records the new text with
// the one it replaced, and Rollback of that batch puts the previous text
// back exactly. Policy batches stack like memory batches: a later policy
// change that still stands blocks the rollback of an earlier one.

// BatchPolicy is the batch kind of one `memtrace policy set`; its rollback
// restores the policy before it.
const BatchPolicy = "policy"

// SettingPolicy is the settings key of the policy a database runs with:
// the canonical YAML of memtrace/policy. Unset or "": the defaults.
const SettingPolicy = "policy"

// settingPolicyLast names the policy batch whose text is current ("" when
// the policy was never set, or every set was rolled back).
const settingPolicyLast = "policy.last"

// policyRecord is what a policy batch keeps: the text before and after,
// the batch that was current before it, who made it and when.
type policyRecord struct {
	Before     string    `json:"before"`
	After      string    `json:"after"`
	PrevBatch  string    `json:"prev_batch"`
	Actor      string    `json:"actor"`
	At         time.Time `json:"at"`
	RolledBack bool      `json:"rolled_back"`
	// RolledBackBy and RolledBackAt: who rolled it back and when (the
	// rollback's audit trail in `memtrace batches`).
	RolledBackBy string    `json:"rolled_back_by,omitempty"`
	RolledBackAt time.Time `json:"rolled_back_at,omitzero"`
	// RollbackBatch is the batch id the rollback was issued (kind rollback).
	RollbackBatch string `json:"rollback_batch,omitempty"`
}

func policyRecordKey(batch string) string { return "policy.batch:" + batch }

// SetPolicy records text (the canonical YAML of a policy, already
// validated by the caller) as the database's policy, in one transaction,
// and returns the batch id. The same text again is refused (ECONFLICT).
func SetPolicy(ctx context.Context, st engine.Store, text, actor string, at time.Time) (string, error) {
	if actor == "" {
		actor = engine.ActorCurator
	}
	var batch string
	err := st.Update(ctx, func(q engine.Queries) error {
		old, err := q.GetSetting(ctx, SettingPolicy)
		if err != nil {
			return err
		}
		if old == text {
			return engine.Errorf(engine.ECONFLICT, "the database already runs with this policy; nothing changed")
		}
		last, err := q.GetSetting(ctx, settingPolicyLast)
		if err != nil {
			return err
		}
		if batch, err = q.NextBatchID(ctx, BatchPolicy); err != nil {
			return err
		}
		rec, err := json.Marshal(policyRecord{Before: old, After: text, PrevBatch: last, Actor: actor, At: at.UTC()})
		if err != nil {
			return err
		}
		index, err := q.GetSetting(ctx, settingPolicyBatches)
		if err != nil {
			return err
		}
		for _, kv := range [][2]string{{policyRecordKey(batch), string(rec)}, {SettingPolicy, text}, {settingPolicyLast, batch},
			{settingPolicyBatches, strings.TrimPrefix(index+"\n"+batch, "\n")}} {
			if err := q.SetSetting(ctx, kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
	return batch, err
}

// PolicyBatch returns the policy batch that set the current policy, ""
// when none did (the defaults, or every set rolled back).
func PolicyBatch(ctx context.Context, q engine.Queries) (string, error) {
	return q.GetSetting(ctx, settingPolicyLast)
}

func readPolicyRecord(ctx context.Context, q engine.Queries, batch string) (*policyRecord, error) {
	v, err := q.GetSetting(ctx, policyRecordKey(batch))
	if err != nil {
		return nil, err
	}
	if v == "" {
		return nil, engine.Errorf(engine.ENOTFOUND, "policy batch %s has no record in this database; list policy changes with `memtrace policy show`", batch)
	}
	var rec policyRecord
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		return nil, fmt.Errorf("policy batch %s: %w", batch, err)
	}
	return &rec, nil
}

// planPolicyRollback is PlanRollback of a policy batch.
func planPolicyRollback(ctx context.Context, q engine.Queries, batch string) (*engine.RollbackPlan, error) {
	rec, err := readPolicyRecord(ctx, q, batch)
	if err != nil {
		return nil, err
	}
	plan := &engine.RollbackPlan{Batch: batch, Kind: BatchPolicy, Actor: rec.Actor, At: rec.At, RolledBack: rec.RolledBack, Policy: !rec.RolledBack}
	if rec.RolledBack {
		return plan, nil
	}
	last, err := q.GetSetting(ctx, settingPolicyLast)
	if err != nil {
		return nil, err
	}
	if last != batch {
		plan.Blocked = []string{last}
	}
	return plan, nil
}

// rollbackPolicy restores the policy before batch, inside q's transaction.
func rollbackPolicy(ctx context.Context, q engine.Queries, batch, actor string) error {
	plan, err := planPolicyRollback(ctx, q, batch)
	if err != nil {
		return err
	}
	switch {
	case plan.RolledBack:
		return engine.Errorf(engine.ECONFLICT, "batch %s was already rolled back; nothing changed", batch)
	case len(plan.Blocked) > 0:
		return engine.Errorf(engine.ECONFLICT, "cannot roll back batch %s: the policy changed after it (%s); roll that back first", batch, plan.Blocked[0])
	}
	rec, err := readPolicyRecord(ctx, q, batch)
	if err != nil {
		return err
	}
	rec.RolledBack, rec.RolledBackBy = true, actor
	if rec.RollbackBatch, err = q.NextBatchID(ctx, engine.BatchRollback); err != nil {
		return err
	}
	if rec.RolledBackAt, err = issuedAt(ctx, q, rec.RollbackBatch); err != nil {
		return err
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	for _, kv := range [][2]string{{SettingPolicy, rec.Before}, {settingPolicyLast, rec.PrevBatch}, {policyRecordKey(batch), string(b)}} {
		if err := q.SetSetting(ctx, kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}
