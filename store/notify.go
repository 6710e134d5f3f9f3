package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// NotifyChannel is the LISTEN/NOTIFY channel of a space: memtrace_SPACE,
// or, when that would pass PostgreSQL's identifier limit (63 bytes, which
// NOTIFY refuses with "channel name too long" and LISTEN truncates), the
// space's first 40 bytes and 12 hex digits of its SHA-256 — so that every
// space name the schema can hold (up to 63 bytes) is writable, and two long
// names that share a prefix do not share a channel.
func NotifyChannel(space string) string {
	const prefix = "memtrace_"
	if len(prefix)+len(space) <= pgIdentMax {
		return prefix + space
	}
	sum := sha256.Sum256([]byte(space))
	return prefix + space[:40] + "_" + hex.EncodeToString(sum[:6])
}

// pgIdentMax is PostgreSQL's identifier limit in bytes (NAMEDATALEN − 1).
const pgIdentMax = 63

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

// lockSeqSQL takes the row lock on the seq counter and reads it.
const lockSeqSQL = `SELECT value FROM counters WHERE name = 'seq' FOR UPDATE`

// flushAndNotify queues the seq counter's write (flushSeq) and the
// transaction's notification, delivered when the transaction commits, in
// one statement that goes to the server with the COMMIT (pgpipe.go). A
// transaction that wrote no memory sends none.
func (tx *Tx) flushAndNotify(ctx context.Context, space string) error {
	if !tx.wroteSeq && len(tx.memIDs) == 0 {
		return tx.flushSeq(ctx)
	}
	payload, err := tx.notification()
	if err != nil {
		return err
	}
	if !tx.seqDirty {
		tx.tx.pipe.exec(`SELECT pg_notify(?, ?)`, []any{NotifyChannel(space), payload},
			func(err error) error { return fmt.Errorf("notify: %w", err) }, nil)
		return nil
	}
	// A data-modifying WITH runs whether or not the query reads it.
	tx.tx.pipe.exec(`WITH flush AS (UPDATE counters SET value = ? WHERE name = 'seq')
		SELECT pg_notify(?, ?)`, []any{tx.seq, NotifyChannel(space), payload},
		func(err error) error { return fmt.Errorf("write seq and notify: %w", err) }, nil)
	tx.seqDirty = false
	return nil
}

// notification is the payload of the transaction's notification.
func (tx *Tx) notification() (string, error) {
	return notificationPayload(tx.seq, tx.memIDs, tx.batches)
}

// notificationPayload is the JSON of a notification of the changes up to
// seq: the memory ids sorted and unique, at most notifyMaxIDs of them.
func notificationPayload(seq int64, memIDs []int64, batches []string) (string, error) {
	n := Notification{Seq: seq, Batches: batches}
	ids := slices.Clone(memIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) > notifyMaxIDs {
		ids, n.More = ids[:notifyMaxIDs], true
	}
	n.Memories = ids
	b, err := json.Marshal(n)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
