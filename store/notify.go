package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// On PostgreSQL every write transaction that changed memories sends, as
// part of its commit, a NOTIFY on the space's channel (NotifyChannel): the
// highest seq it wrote and the ids of the memories and batches it
// audited. NOTIFY is transactional: listeners hear of a change only once it
// is committed, and never of one rolled back. A listener (Listen) does not
// need the ids to stay current: it asks MemoriesChangedSince for
// everything after the seq it last applied, so a lost or merged
// notification loses nothing.

// Notification is the payload of one change notification.
type Notification struct {
	Seq      int64    `json:"seq"`
	Memories []int64  `json:"memories,omitempty"`
	Batches  []string `json:"batches,omitempty"`
	// More: ids were left out to keep the payload under PostgreSQL's limit.
	More bool `json:"more,omitempty"`
}

// NotifyChannel is the LISTEN/NOTIFY channel of a space.
func NotifyChannel(space string) string { return "memtrace_" + space }

// notifyMaxIDs bounds the ids of one payload (PostgreSQL's limit is 8000
// bytes).
const notifyMaxIDs = 400

// changed records what an audit row changed.
func (tx *Tx) changed(memoryID int64, batch string) {
	if len(tx.memIDs) < notifyMaxIDs+1 {
		tx.memIDs = append(tx.memIDs, memoryID)
	}
	if batch != "" && !slices.Contains(tx.batches, batch) && len(tx.batches) < 16 {
		tx.batches = append(tx.batches, batch)
	}
}

// lockSeq takes the row lock on the space's seq counter that serialises
// its writers, and loads the counter (postgres.go says why a row lock).
func (tx *Tx) lockSeq(ctx context.Context) error {
	if err := tx.tx.QueryRowContext(ctx, `SELECT value FROM counters WHERE name = 'seq' FOR UPDATE`).Scan(&tx.seq); err != nil {
		return fmt.Errorf("lock seq: %w", err)
	}
	tx.seqLoaded = true
	return nil
}

// notifyChanges queues the transaction's notification; it is delivered
// when the transaction commits. A transaction that wrote no memory sends
// none.
func (tx *Tx) notifyChanges(ctx context.Context, space string) error {
	if !tx.wroteSeq && len(tx.memIDs) == 0 {
		return nil
	}
	n := Notification{Seq: tx.seq, Batches: tx.batches}
	ids := slices.Clone(tx.memIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) > notifyMaxIDs {
		ids, n.More = ids[:notifyMaxIDs], true
	}
	n.Memories = ids
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if _, err := tx.tx.ExecContext(ctx, `SELECT pg_notify(?, ?)`, NotifyChannel(space), string(b)); err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	return nil
}
