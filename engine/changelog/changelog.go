// Package changelog remembers the last memories a cache took, with their
// seqs, so that a pipeline keeping its own index over the cache (the
// capture's dedupe index) can catch up with what changed since a seq
// without a pass over every memory.
package changelog

import (
	"math"
	"slices"
)

// Size is how many changes a Log keeps.
const Size = 4096

// Log is a ring of the last Size (id, seq) pairs the cache took. Not safe
// for concurrent use: the engine holds its cache's lock.
type Log struct {
	ids, seqs []int64
	next      int
	// floor is the highest seq of a change the ring no longer holds:
	// Since(seq) is complete only for seq at or above it.
	floor int64
}

// Add records that the cache took memory id at seq.
func (l *Log) Add(id, seq int64) {
	if len(l.ids) < Size {
		l.ids, l.seqs = append(l.ids, id), append(l.seqs, seq)
		return
	}
	l.floor = max(l.floor, l.seqs[l.next])
	l.ids[l.next], l.seqs[l.next] = id, seq
	l.next = (l.next + 1) % Size
}

// Invalidate makes every later Since incomplete: the cache was replaced
// (a resync), and seqs read before may no longer mean what they meant.
func (l *Log) Invalidate() { l.floor = math.MaxInt64 }

// Since returns, in ascending order and once each, the ids of the
// memories the cache took at a seq above seq; ok false when the ring may
// lack some (the caller looks at every memory instead).
func (l *Log) Since(seq int64) (ids []int64, ok bool) {
	if seq < l.floor {
		return nil, false
	}
	for i, s := range l.seqs {
		if s > seq {
			ids = append(ids, l.ids[i])
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}
