package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"memtrace/engine"
	"memtrace/engine/filter"
)

// OutcomeSkipped is the outcome of a message whose id is already in
// captures: it is not offered to the pipeline again (resumable imports).
const OutcomeSkipped = "skipped"

// ReasonAlreadyCaptured is the reason of a skipped capture.
const ReasonAlreadyCaptured = "already_captured"

// Capturer runs batch after batch through the capture pipeline with what
// it needs prepared once: the compiled filter tables, the gates with their
// embedded exemplars and the judge. The dedupe index (content hashes and
// an LSH over the active memories' vectors) is the engine's, kept current
// from its cache across batches and Capturers (capture_index.go). An
// import uses one Capturer; Engine.Capture and CaptureBatch share one the
// engine keeps. A Capturer is not safe for concurrent use.
type Capturer struct {
	e       *engine.Engine
	st      *captureState // the engine's: its dedupe index, kept across Capturers
	filter  *filter.Filter
	gates   *gateSet
	guard   []injectionPattern
	judge   engine.Judge
	decider string
	// holdSecrets: a message that held a secret value is held in the
	// review queue with its raw text instead of stored (HoldSecrets).
	holdSecrets bool

	// batch is the audit batch of this Capturer's writes: one Capturer is
	// one run (an ingest, an import), so every call shares it. It is taken
	// from the database at the first write that commits.
	batch string

	// dx is the engine's dedupe and subject index (capture_index.go),
	// held by this Capturer for the length of one run; nil outside one.
	dx    *dedupeIndex
	rule  *supersedeRule
	facts map[int64]factsEntry // the rule's reading of memories it checked
	// judgeSynced: the subject index caught up with the cache for this
	// run's judge candidates (supersede_judge.go).
	judgeSynced bool
	// ahead holds the vectors of one run's messages embedded ahead
	// (embedAhead); nil outside a run or with a local embedder.
	ahead *aheadEmbedder
}

// NewCapturer prepares the pipeline for e.
func NewCapturer(ctx context.Context, e *engine.Engine) (*Capturer, error) {
	g, err := newGateSet(ctx, e.Embedder(), e.Config().GateSimilarity, e.Config().DedupeSimilarity)
	if err != nil && embedderAway(ctx, err) {
		// The embedder is away (an Ollama server stopped): the capturer
		// still runs, and every statement that would be stored waits in the
		// review queue (holdUnembedded) for `review retry`.
		g = &gateSet{embedder: e.Embedder().Name(), guards: roleplayPatterns(), unavailable: engine.ErrorMessage(err),
			dedupe: DedupeCalibration{Configured: e.Config().DedupeSimilarity, Threshold: e.Config().DedupeSimilarity}}
	} else if err != nil {
		return nil, err
	}
	c := &Capturer{e: e, st: captureOf(e), filter: filter.New(), gates: g, judge: e.Judge(), rule: newSupersedeRule(), guard: injectionPatterns()}
	if c.judge == nil {
		c.judge = RuleJudge{tables: defaultTypeTables()}
	}
	c.decider = judgeDecider(c.judge)
	return c, nil
}

func judgeDecider(j engine.Judge) string {
	if _, ok := j.(RuleJudge); ok {
		return "rules"
	}
	return "judge:" + j.Name()
}

// Capture runs one message through the capture pipeline in its own
// transaction.
func Capture(ctx context.Context, e *engine.Engine, m engine.Message) (*engine.CaptureResult, error) {
	rs, err := CaptureBatch(ctx, e, []engine.Message{m})
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// pending is one message between the pure stages and the write.
type pending struct {
	msg engine.Message
	// screened: L1, L2 and the judge ran (screen); passed: the judge
	// would store the message, with judged its verdict on in.
	screened, passed bool
	in               engine.CaptureInput
	judged           engine.CaptureVerdict
	res              *engine.CaptureResult
	store            bool
	verdict          engine.CaptureVerdict
	vec              []float32
	lesson           *lessonFinding
	held             *engine.ReviewItem // set when the judge held the message (needs_review)
	// raw is the message's text before redaction, kept only when the
	// Capturer holds secrets: the review queue is the one place it goes.
	raw string
	// shown are the candidates the judge was shown for supersession and
	// answered on (p.verdict.Updates); nil when no judge saw any.
	shown  []engine.SupersedeCandidate
	review *engine.ReviewItem // the queue item this offer re-offers (Reoffer), else nil
	// entry is the dedupe index's entry of vec, and pre its near-duplicate
	// among the memories indexed before the batch, when the message was
	// decided on every CPU (capture_parallel.go); else nil.
	entry *lshEntry
	pre   *preDup
	slot  *decideSlot // the chunk p is decided in, when on every CPU
	// What a memory of the message would hold, computed before the write
	// (prepareStore): its content and content hash, the subjects it names
	// (with supersession), and its lexical terms.
	prepared bool
	content  string
	hash     string
	subjects []string
	terms    []string
	change   *changeFinding // the supersession rule's reading (with the rule)
	// stmt is the statement this memory holds when the message was split
	// into several (capture_statements.go), else ""; more are the
	// statements after the first, stored with it.
	stmt string
	more []*pending
}

// prepareStore computes what p's memory would hold (see pending).
func (c *Capturer) prepareStore(p *pending) {
	if p.prepared {
		return
	}
	text := p.stmt
	if text == "" {
		text = c.filter.StripMemoryTags(p.msg.Text)
	}
	p.content = boundedContent(strings.TrimSpace(text))
	p.hash = engine.ContentHash(p.content)
	p.terms = engine.LexTerms(p.content)
	if c.rule != nil {
		p.subjects = c.rule.indexKeys(lexNorm(p.content), p.terms)
		f := c.rule.find(p.content)
		p.change = &f
	}
	p.prepared = true
}

// prepareAll is prepareStore of p and of the statements stored with it,
// when p is to be stored.
func (c *Capturer) prepareAll(p *pending) {
	if !p.store {
		return
	}
	c.prepareStore(p)
	for _, s := range p.more {
		c.prepareAll(s)
	}
}

// CaptureBatch runs msgs through the pipeline — L1 rules, L2 regex, the L3
// judge, the extraction gates, dedupe/reinforce, corrections — and writes
// every message to captures with its trail, all in one transaction. The
// judge and the embedder run before the transaction opens, so a slow judge
// never holds the database lock. A message whose id is already in captures
// is skipped (OutcomeSkipped), so an interrupted import can be re-run.
// Messages of every role go through the same filters.
//
// The engine keeps one Capturer for these calls, created on first use and
// used by one call at a time; its dedupe index follows the engine's cache.
func CaptureBatch(ctx context.Context, e *engine.Engine, msgs []engine.Message) ([]*engine.CaptureResult, error) {
	st := captureOf(e)
	st.capMu.Lock()
	defer st.capMu.Unlock()
	away := st.capturer != nil && st.capturer.gates.unavailable != ""
	if st.capturer == nil || away {
		// A capturer made while the embedder was away is made again at
		// each capture until it is back; then the statements it held are
		// offered again (retryUnembedded).
		c, err := NewCapturer(ctx, e)
		if err != nil {
			return nil, err
		}
		st.capturer = c
		if away && c.gates.unavailable == "" {
			retryUnembedded(ctx, c)
		}
	}
	st.capturer.batch = "" // each call is one action: its own batch
	return st.capturer.CaptureBatch(ctx, msgs)
}

// Batch is the audit batch of the Capturer's run ("" before its first
// write).
func (c *Capturer) Batch() string { return c.batch }

// CaptureBatch is Engine.CaptureBatch with the prepared state of c; every
// call of one Capturer writes under one batch.
func (c *Capturer) CaptureBatch(ctx context.Context, msgs []engine.Message) ([]*engine.CaptureResult, error) {
	ps := make([]*pending, len(msgs))
	for i, m := range msgs {
		raw := m.Text
		redacted := redactSecrets(&m) // before anything else reads the text
		if m.ID == "" {
			m.ID = derivedMessageID(m)
		}
		m.At = m.At.UTC()
		ps[i] = &pending{msg: m, res: &engine.CaptureResult{MessageID: m.ID, Key: m.ID, Trail: []engine.Decision{}}}
		if redacted != nil {
			ps[i].res.Trail = append(ps[i].res.Trail, *redacted)
			if c.holdSecrets {
				ps[i].raw = raw
			}
		}
	}
	// Which messages were captured before: one short transaction for the
	// batch, so that a resumed import does not judge them again.
	done := make([]bool, len(ps))
	if len(ps) == 1 {
		// One message (an agent's capture): one read, not a write
		// transaction — on PostgreSQL that would take the space's write
		// lock and four round trips only to look. The write re-checks
		// under the lock (batchWriter.write), so a message captured in
		// between is still skipped.
		ok, err := c.e.Store().CaptureExists(ctx, ps[0].msg.ID)
		if err != nil {
			return nil, fmt.Errorf("capture %s: %w", ps[0].msg.ID, err)
		}
		done[0] = ok
		return c.run(ctx, ps, done, "")
	}
	err := c.e.Store().Update(ctx, func(q engine.Queries) error {
		seen, err := q.CapturesExist(ctx, messageIDs(ps))
		if err != nil {
			return fmt.Errorf("capture batch: %w", err)
		}
		for i, p := range ps {
			done[i] = seen[p.msg.ID]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c.run(ctx, ps, done, "")
}

// run decides the messages not done and writes them in one transaction
// under batch, or, when batch is "", under the Capturer's batch (a new id
// from the database's counter on its first write).
func (c *Capturer) run(ctx context.Context, ps []*pending, done []bool, batch string) ([]*engine.CaptureResult, error) {
	e := c.e
	c.judgeSynced = false
	c.st.dxMu.Lock()
	defer c.st.dxMu.Unlock()
	c.adoptIndex()
	defer func() { c.dx = nil }()
	inBatch := map[string]bool{}
	var todo []*pending
	for i, p := range ps {
		m := p.msg
		if done[i] || inBatch[m.ID] {
			p.res.Outcome, p.res.Reason = OutcomeSkipped, ReasonAlreadyCaptured
			continue
		}
		inBatch[m.ID] = true
		todo = append(todo, p)
	}
	defer func() { c.ahead = nil }()
	if err := c.embedAhead(ctx, todo); err != nil {
		return nil, err
	}
	var pipe *decidePipe
	if c.parallelDecide(len(todo)) {
		pipe = c.startDecide(ctx, todo)
		defer pipe.finish(true)
	} else {
		for _, p := range todo {
			if err := c.decide(ctx, p); err != nil {
				return nil, err
			}
		}
		// What a memory of each message would hold (content, hash,
		// terms, subjects) depends on the message only: computed here,
		// not under the store's write lock (on PostgreSQL a space's
		// other writers wait for it).
		for _, p := range todo {
			c.prepareAll(p)
		}
		// And the dedupe index's catch-up and its LSH scan, at the seq the
		// cache is at now: under the lock, only what changed since is
		// scanned again (batchWriter.duplicate).
		c.preScan(todo)
	}
	seq0 := e.Seq()
	var changed []*engine.Memory
	var terms map[int64][]string
	var w *batchWriter
	fresh := false
	// The messages whose ids the transaction checks again under the lock.
	var offered []*pending
	for _, p := range todo {
		if p.review == nil {
			offered = append(offered, p)
		}
	}
	err := e.Store().Update(ctx, func(q engine.Queries) error {
		// On PostgreSQL the check goes to the server with the refresh:
		// one round trip fewer under the space's lock.
		if ahead, ok := q.(capturesExistAhead); ok {
			ahead.CapturesExistAhead(messageIDs(offered))
		}
		// The transaction holds the write lock from its start (BEGIN
		// IMMEDIATE), so the rows other writers changed since the cache's
		// last refresh, read here, together with this batch's own writes
		// are every change up to the commit: the caches take both without
		// reading the batch's rows back.
		others, _, err := q.MemoriesChangedSince(ctx, seq0)
		if err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
		// They are committed: the cache takes them now, so the dedupe
		// below decides against every committed memory, not against the
		// cache as it was when the batch was decided — four processes
		// capturing one statement leave one memory and three
		// reinforcements (the index catches up in batchWriter.duplicate).
		if len(others) > 0 {
			if err := e.LoadWritten(ctx, others, nil); err != nil {
				return fmt.Errorf("refresh: %w", err)
			}
		}
		if batch == "" && c.batch == "" {
			b, err := q.NextBatchID(ctx, engine.BatchCapture)
			if err != nil {
				return err
			}
			c.batch, fresh = b, true
		}
		if batch == "" {
			batch = c.batch
		}
		w = &batchWriter{c: c, q: q, actor: engine.Actor{Name: "capture", Batch: batch}, pipe: pipe}
		defer func() { changed, terms = w.written(), w.terms }()
		// Another writer may have taken some of the messages since the
		// check above: one query for the batch, under the write lock.
		// todo is every message not skipped, in order; the decision
		// workers may still be deciding some of them.
		if w.taken, err = q.CapturesExist(ctx, messageIDs(offered)); err != nil {
			return fmt.Errorf("capture batch: %w", err)
		}
		for _, p := range todo {
			if err := p.decided(); err != nil {
				return err
			}
			if err := w.write(ctx, p); err != nil {
				return err
			}
		}
		pipe.finish(false)
		return nil
	})
	if err != nil {
		pipe.finish(true)        // no worker reads the index any more
		c.dx, c.st.dx = nil, nil // it may hold rolled-back inserts
		if fresh {
			c.batch = "" // its id was rolled back with it
		}
		return nil, fmt.Errorf("capture batch: %w", err)
	}
	// The batch's inserts go into the LSH while the cache takes them: the
	// two share nothing, and no worker scans the LSH any more.
	var flushed sync.WaitGroup
	flushed.Go(w.flushLSH)
	err = e.LoadWritten(ctx, changed, terms)
	flushed.Wait()
	if err != nil {
		return nil, fmt.Errorf("capture batch: %w", err)
	}
	out := make([]*engine.CaptureResult, len(ps))
	for i, p := range ps {
		out[i] = p.res
	}
	return out, nil
}

// capturesExistAhead is a store transaction that can send a
// CapturesExist query with the statement that follows it and answer the
// CapturesExist call with the same ids from it (store's PostgreSQL
// writes: the capture's refresh and its taken check in one round trip).
type capturesExistAhead interface {
	CapturesExistAhead(messageIDs []string)
}

// insertMemoryAhead is a store transaction whose InsertMemoryAhead is
// InsertMemory with a taken key failing the whole transaction, which lets
// the insert wait for the transaction's next round trip (store's
// PostgreSQL writes).
type insertMemoryAhead interface {
	InsertMemoryAhead(ctx context.Context, m *engine.Memory, a engine.Actor) error
}

// messageIDs lists the message ids of ps.
func messageIDs(ps []*pending) []string {
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.msg.ID
	}
	return ids
}

// derivedMessageID names a message that came without an id by its content,
// so that re-importing it is still recognised.
func derivedMessageID(m engine.Message) string {
	h := sha256.New()
	for _, s := range []string{m.Session, m.Role, m.At.UTC().Format(time.RFC3339Nano), m.Text} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "msg:" + hex.EncodeToString(h.Sum(nil))[:16]
}
