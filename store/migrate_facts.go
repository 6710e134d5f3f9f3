package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"memtrace/engine"
)

// Migration 28 moves the facts older rows kept only in prose into the
// columns it adds. This file is the one place that reads those texts, once,
// inside the migration's transaction; no code parses them afterwards.

// What a withdrawal and a rejection before migration 28 appended to a
// proposal's reason: "; withdrawn: moot after proposal N (KIND) was applied
// in batch B", "; rejected: NOTE".
const (
	legacyWithdrawn = "; withdrawn: moot after proposal "
	legacyRejected  = "; rejected: "
)

// migrateFacts is the Go step of migration 28.
func migrateFacts(ctx context.Context, tx sqlTx) error {
	if err := moveProposalFacts(ctx, tx); err != nil {
		return err
	}
	return recordBatchKinds(ctx, tx)
}

// moveProposalFacts gives every withdrawn proposal of an older memtrace
// its withdrawn_by, every rejected one its reject_note, and each its
// reason as the proposer wrote it.
func moveProposalFacts(ctx context.Context, tx sqlTx) error {
	return rewritePages(ctx, tx, "proposal facts", `SELECT id, status, reason FROM proposals WHERE id > ? ORDER BY id LIMIT ?`,
		`UPDATE proposals SET reason = ?, withdrawn_by = ?, reject_note = ? WHERE id = ?`, func(rows *sql.Rows) (int64, []any, error) {
			var (
				id             int64
				status, reason string
			)
			if err := rows.Scan(&id, &status, &reason); err != nil {
				return 0, nil, err
			}
			switch status {
			case engine.ProposalWithdrawn:
				if before, by, ok := cutLegacyWithdrawal(reason); ok {
					return id, []any{before, by, "", id}, nil
				}
			case engine.ProposalRejected:
				// The last marker is the rejection's, as the rollback of an
				// older memtrace cut it.
				if i := strings.LastIndex(reason, legacyRejected); i >= 0 {
					return id, []any{strings.TrimSpace(reason[:i]), 0, strings.TrimSpace(reason[i+len(legacyRejected):]), id}, nil
				}
			}
			return id, nil, nil
		})
}

// cutLegacyWithdrawal splits an older withdrawn proposal's reason into
// the reason before the withdrawal and the proposal that made it moot.
func cutLegacyWithdrawal(reason string) (string, int64, bool) {
	i := strings.LastIndex(reason, legacyWithdrawn)
	if i < 0 {
		return reason, 0, false
	}
	num, _, _ := strings.Cut(reason[i+len(legacyWithdrawn):], " ")
	by, err := strconv.ParseInt(num, 10, 64)
	if err != nil || by <= 0 {
		return reason, 0, false
	}
	return strings.TrimSpace(reason[:i]), by, true
}

// legacyBatchKinds are the kinds an older memtrace issued batch ids of,
// "KIND-TIME-SEQ" (engine.FormatBatchID). Ids a caller named itself
// ("import:SOURCE:…" of `import memories`, a bench's "synthetic") get no
// kind, as they get none when written today.
var legacyBatchKinds = []string{engine.BatchCapture, engine.BatchApprove, engine.BatchApply, engine.BatchCurator,
	engine.BatchForget, engine.BatchImport, engine.BatchAdd, engine.BatchReviewRetry, engine.BatchReviewStore, engine.BatchReviewSkip}

// recordBatchKinds fills the batches table for every batch id older rows
// name (in the audit log or on a proposal), with the kind and the batch
// rolled back read off the id, once. An id no memtrace issued gets a row
// with no kind.
func recordBatchKinds(ctx context.Context, tx sqlTx) error {
	rows, err := tx.QueryContext(ctx, `SELECT batch FROM audit WHERE batch <> '' UNION SELECT batch FROM proposals WHERE batch <> ''`)
	if err != nil {
		return fmt.Errorf("batch kinds: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("batch kinds: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("batch kinds: %w", err)
	}
	for _, id := range ids {
		kind, of := legacyBatchKind(id)
		if _, err := tx.ExecContext(ctx, `INSERT INTO batches (batch, kind, rollback_of) VALUES (?, ?, ?) ON CONFLICT (batch) DO NOTHING`, id, kind, of); err != nil {
			return fmt.Errorf("batch kinds %s: %w", id, err)
		}
	}
	return nil
}

// legacyBatchKind reads an older batch id: "rollback:B" is the rollback of
// B; otherwise the longest known kind the id starts with.
func legacyBatchKind(id string) (kind, rollbackOf string) {
	if of, ok := strings.CutPrefix(id, "rollback:"); ok {
		return engine.BatchRollback, of
	}
	for _, k := range legacyBatchKinds {
		if strings.HasPrefix(id, k+"-") && len(k) > len(kind) {
			kind = k
		}
	}
	return kind, ""
}
