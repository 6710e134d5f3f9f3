package store

import (
	"context"
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

// moveProposalFacts gives every withdrawn proposal of an older memtrace
// its withdrawn_by, every rejected one its reject_note, and each its
// reason as the proposer wrote it, a page of rows at a time (a PostgreSQL
// connection runs one statement at a time, so the page is read in full
// before its updates).
func moveProposalFacts(ctx context.Context, tx sqlTx) error {
	const page = 2000
	type fact struct {
		id, by       int64
		reason, note string
	}
	for after := int64(0); ; {
		rows, err := tx.QueryContext(ctx, `SELECT id, status, reason FROM proposals WHERE id > ? ORDER BY id LIMIT ?`, after, page)
		if err != nil {
			return fmt.Errorf("proposal facts: %w", err)
		}
		var facts []fact
		n := 0
		for rows.Next() {
			var (
				id             int64
				status, reason string
			)
			if err := rows.Scan(&id, &status, &reason); err != nil {
				rows.Close()
				return fmt.Errorf("proposal facts: %w", err)
			}
			n, after = n+1, id
			switch status {
			case engine.ProposalWithdrawn:
				if before, by, ok := cutLegacyWithdrawal(reason); ok {
					facts = append(facts, fact{id: id, by: by, reason: before})
				}
			case engine.ProposalRejected:
				// The last marker is the rejection's, as the rollback of an
				// older memtrace cut it.
				if i := strings.LastIndex(reason, legacyRejected); i >= 0 {
					facts = append(facts, fact{id: id, reason: strings.TrimSpace(reason[:i]), note: strings.TrimSpace(reason[i+len(legacyRejected):])})
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("proposal facts: %w", err)
		}
		for _, f := range facts {
			if _, err := tx.ExecContext(ctx, `UPDATE proposals SET reason = ?, withdrawn_by = ?, reject_note = ? WHERE id = ?`, f.reason, f.by, f.note, f.id); err != nil {
				return fmt.Errorf("proposal facts %d: %w", f.id, err)
			}
		}
		if n < page {
			return nil
		}
	}
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
