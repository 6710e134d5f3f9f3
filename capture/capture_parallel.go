package capture

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The pure half of a capture batch on every CPU, while the write runs. With
// the rule judge a message's decision (L1, L2, the rules, the gates, the
// lesson and injection checks, the embedding) reads nothing that changes,
// and neither does its near-duplicate scan over the memories the LSH held
// before the batch: the dedupe index is caught up with the cache first, and
// the batch's own inserts go into the LSH only once the batch is written.
// So workers on every CPU decide and scan the messages, chunk by chunk, and
// the write, one message after the other in the transaction, takes the
// chunks in order as they are done and only looks, for each message, at
// what the batch inserted before it (batchWriter.duplicate). The memory
// chosen is the one a scan over everything would choose: the most similar
// at or above the threshold, the lower id on a tie, over the union of the
// two candidate sets. When the cache changed in between (another process),
// the write lets the workers finish, catches the index up and scans again.
//
// The rule judge is fast, so the transaction is open while it decides; a
// judge on a server decides every message before the transaction opens,
// one at a time, as before: it proposes supersession candidates from the
// subject index, and a slow model holds no lock.

// preDup is a message's near-duplicate among the memories the LSH held
// before its batch: id 0 when none reaches the threshold. seq is the
// cache's seq the LSH was caught up to; the write uses the result only
// while the index still is at that seq.
type preDup struct {
	id  int64
	sim float64
	seq int64
}

// decideChunk is how many messages a worker decides at a time; the write
// waits for a chunk's messages before it writes them.
const decideChunk = 16

// parallelDecide reports whether c decides a batch of n messages on every
// CPU.
func (c *Capturer) parallelDecide(n int) bool {
	_, rules := c.judge.(RuleJudge)
	return rules && n > decideChunk && runtime.GOMAXPROCS(0) > 1
}

// decidePipe is the decision of one batch in progress on every CPU, chunk
// by chunk, while the write takes the chunks in order.
type decidePipe struct {
	slots []decideSlot
	stop  atomic.Bool
	wg    sync.WaitGroup
}

type decideSlot struct {
	done chan struct{}
	err  error
}

// errDecideStopped is a chunk's error when the batch stopped before it.
var errDecideStopped = errors.New("capture batch stopped")

// startDecide starts deciding todo on every CPU and scanning each message
// to store for a near-duplicate among the memories indexed before the
// batch. The dedupe index is caught up first and is not changed (but for
// what the LSH does not hold) until finish returns. Caller holds c.st.dxMu.
func (c *Capturer) startDecide(ctx context.Context, todo []*pending) *decidePipe {
	c.syncIndex()
	n := (len(todo) + decideChunk - 1) / decideChunk
	pipe := &decidePipe{slots: make([]decideSlot, n)}
	for i := range pipe.slots {
		pipe.slots[i].done = make(chan struct{})
	}
	for k, p := range todo {
		p.slot = &pipe.slots[k/decideChunk]
	}
	dx := c.dx
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), n) {
		pipe.wg.Add(1)
		go func() {
			defer pipe.wg.Done()
			var s lshScratch
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				sl := &pipe.slots[i]
				sl.err = errDecideStopped
				if !pipe.stop.Load() {
					sl.err = c.decideScan(ctx, dx, &s, todo[i*decideChunk:min((i+1)*decideChunk, len(todo))])
				}
				close(sl.done)
			}
		}()
	}
	return pipe
}

// decideScan decides ps and scans those to store against dx's LSH.
func (c *Capturer) decideScan(ctx context.Context, dx *dedupeIndex, s *lshScratch, ps []*pending) error {
	e := c.e
	for _, p := range ps {
		if err := c.decide(ctx, p); err != nil {
			return err
		}
		if !p.store {
			continue
		}
		c.prepareStore(p)
		en := dx.lsh.entry(p.vec)
		p.entry = &en
		v := e.View()
		if v.Seq() == dx.syncSeq {
			// The cache is what the index was caught up to; else the write
			// scans again once the index has caught up.
			id, sim := dx.lsh.scan(s, p.vec, &en, c.gates.dedupe.Threshold, true, v.Vector)
			p.pre = &preDup{id: id, sim: sim, seq: dx.syncSeq}
		}
		v.Close()
	}
	return nil
}

// preScan is decideScan's scan for a batch decided in order: the index
// caught up with the cache and each memory to store scanned against its
// LSH (p.entry, p.pre), before the store's write lock, where the write
// then rescans only the memories the cache took since (rescan).
func (c *Capturer) preScan(ps []*pending) {
	if !slices.ContainsFunc(ps, func(p *pending) bool { return p.store }) {
		return
	}
	c.syncIndex()
	dx := c.dx
	v := c.e.View()
	defer v.Close()
	if v.Seq() != dx.syncSeq {
		return
	}
	var scan func(ps []*pending)
	scan = func(ps []*pending) {
		for _, p := range ps {
			if !p.store || p.vec == nil {
				continue
			}
			en := dx.lsh.entry(p.vec)
			p.entry = &en
			id, sim := dx.lsh.scan(&dx.lsh.own, p.vec, &en, c.gates.dedupe.Threshold, true, v.Vector)
			p.pre = &preDup{id: id, sim: sim, seq: dx.syncSeq}
			scan(p.more)
		}
	}
	scan(ps)
}

// decided waits for p's decision and returns its chunk's error.
func (p *pending) decided() error {
	if p.slot == nil {
		return nil
	}
	<-p.slot.done
	return p.slot.err
}

// finish waits until every worker has stopped; with stop, the chunks not
// yet started are not decided.
func (pipe *decidePipe) finish(stop bool) {
	if pipe == nil {
		return
	}
	if stop {
		pipe.stop.Store(true)
	}
	pipe.wg.Wait()
}

// parallelChunks calls a function of each worker's own (from newWorker)
// on the ranges [lo, hi) of n items, chunk items at a time, with as many
// workers as there are CPUs. It returns the first error; the workers stop
// taking chunks after it.
func parallelChunks(n, chunk int, newWorker func() func(lo, hi int) error) error {
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	if workers <= 1 {
		if n == 0 {
			return nil
		}
		return newWorker()(0, n)
	}
	var (
		next   atomic.Int64
		failed atomic.Bool
		once   sync.Once
		first  error
		wg     sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWorker()
			for !failed.Load() {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				if err := work(lo, min(lo+chunk, n)); err != nil {
					once.Do(func() { first = err })
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}
