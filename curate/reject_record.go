package curate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"memtrace/engine"
)

// The audit trail of a rejection. A rejection changes no memory, so the
// memory audit log has no row of it, and once it is rolled back its
// proposals no longer carry its batch: without a record of its own the
// rejection and its rollback would vanish from `memtrace batches`. Each
// rejection batch therefore keeps a record (who, when, why, which
// proposals from which status) and, once rolled back, who undid it, when
// and under which batch id — beside the policy records, in the settings.

// settingRejections lists every recorded rejection batch, oldest first,
// one id a line.
const settingRejections = "rejection.batches"

func rejectionRecordKey(batch string) string { return "rejection.batch:" + batch }

// rejectedProposal is one proposal a rejection rejected and the status the
// rejection moved it from.
type rejectedProposal struct {
	ID    int64  `json:"id"`
	Prior string `json:"prior"`
}

// rejectionRecord is what a rejection batch did and whether it was undone.
type rejectionRecord struct {
	Actor     string             `json:"actor"`
	At        time.Time          `json:"at"`
	Note      string             `json:"note,omitempty"`
	Proposals []rejectedProposal `json:"proposals"`

	RolledBack    bool      `json:"rolled_back,omitempty"`
	RolledBackBy  string    `json:"rolled_back_by,omitempty"`
	RolledBackAt  time.Time `json:"rolled_back_at,omitzero"`
	RollbackBatch string    `json:"rollback_batch,omitempty"`
}

// readRejectionRecord returns batch's record, nil when it has none (a
// rejection written before memtrace kept them, or no rejection at all).
func readRejectionRecord(ctx context.Context, q engine.Queries, batch string) (*rejectionRecord, error) {
	v, err := q.GetSetting(ctx, rejectionRecordKey(batch))
	if err != nil || v == "" {
		return nil, err
	}
	var rec rejectionRecord
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		return nil, fmt.Errorf("the record of rejection %s does not decode: %w", batch, err)
	}
	return &rec, nil
}

// saveRejectionRecord writes batch's record; a new one joins the index.
func saveRejectionRecord(ctx context.Context, q engine.Queries, batch string, rec *rejectionRecord, isNew bool) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := q.SetSetting(ctx, rejectionRecordKey(batch), string(b)); err != nil {
		return err
	}
	if !isNew {
		return nil
	}
	index, err := q.GetSetting(ctx, settingRejections)
	if err != nil {
		return err
	}
	return q.SetSetting(ctx, settingRejections, strings.TrimPrefix(index+"\n"+batch, "\n"))
}

// rejectionBatchIDs are the recorded rejection batches, oldest first.
func rejectionBatchIDs(ctx context.Context, q engine.Queries) ([]string, error) {
	return settingLines(ctx, q, settingRejections)
}

// settingLines are the distinct non-empty lines of setting key, in order:
// the index of the policy and the rejection records.
func settingLines(ctx context.Context, q engine.Queries, key string) ([]string, error) {
	index, err := q.GetSetting(ctx, key)
	if err != nil {
		return nil, err
	}
	var ids []string
	seen := map[string]bool{}
	for _, id := range strings.Split(index, "\n") {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// markRejectionRolledBack records that actor undid batch's rejection, under
// a rollback batch id of its own, and returns that id. A rejection without
// a record (older memtrace) gets none: there is nothing to list it from.
func markRejectionRolledBack(ctx context.Context, q engine.Queries, batch, actor string) (string, error) {
	rec, err := readRejectionRecord(ctx, q, batch)
	if err != nil || rec == nil {
		return "", err
	}
	rec.RolledBack, rec.RolledBackBy = true, actor
	if rec.RollbackBatch, err = q.NextBatchID(ctx, engine.BatchRollback); err != nil {
		return "", err
	}
	if rec.RolledBackAt, err = issuedAt(ctx, q, rec.RollbackBatch); err != nil {
		return "", err
	}
	return rec.RollbackBatch, saveRejectionRecord(ctx, q, batch, rec, false)
}

// rejectionBatches are the history rows of the recorded rejections: each
// rejection and, once undone, its rollback. open counts, per batch, the
// proposals still rejected in it (a rejection can be rolled back while one
// is).
func rejectionBatches(ctx context.Context, q engine.Queries, open map[string]int) ([]engine.BatchInfo, error) {
	ids, err := rejectionBatchIDs(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []engine.BatchInfo
	for _, id := range ids {
		rec, err := readRejectionRecord(ctx, q, id)
		if err != nil {
			return nil, err
		}
		if rec == nil {
			continue
		}
		kind, _, err := q.BatchKind(ctx, id)
		if err != nil {
			return nil, err
		}
		n := len(rec.Proposals)
		b := engine.BatchInfo{Batch: id, Kind: kind, Actor: rec.Actor, At: rec.At, Rows: n, RolledBack: rec.RolledBack}
		b.Effect.Rejected = n
		switch {
		case rec.RolledBack:
			b.WhyNot = "already rolled back"
		case open[id] == 0:
			b.WhyNot = "none of its proposals is rejected any more"
		default:
			b.CanRollback = true
		}
		out = append(out, b)
		if rec.RolledBack {
			rb := engine.BatchInfo{Batch: rec.RollbackBatch, Kind: engine.BatchRollback, RollbackOf: id,
				Actor: rec.RolledBackBy, At: rec.RolledBackAt, Rows: n,
				WhyNot: "reject the proposals again to redo it"}
			rb.Effect.Reopened = n
			out = append(out, rb)
		}
	}
	return out, nil
}
