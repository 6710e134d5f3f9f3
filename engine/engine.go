package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"memtrace/engine/changelog"
	"memtrace/engine/index"
	"memtrace/internal/half"
)

// Options wire an Engine.
type Options struct {
	Store    Store
	Embedder Embedder         // nil: the offline hashed n-gram embedder
	Judge    Judge            // nil: the rule-based fallback decides
	Now      func() time.Time // nil: time.Now
	Config   Config           // zero fields take DefaultConfig()
	// OneShot: the engine answers one request and closes (a command's
	// recall): what pays off only over many searches is not built at
	// open. The vector index's pair postings are left unposted — a search
	// scans the rows, the same hits bit for bit (index.Vectors), and the
	// first write that needs the lists posts them.
	OneShot bool
}

// Hit is a search result; Score is higher-is-better. It is the type the
// lexical and vector indexes rank with, so their results pass through as
// they are.
type Hit = index.Hit

// Engine holds the caches derived from the store — every memory, a BM25
// index and a vector index — and runs the pipelines over them. It is safe for
// concurrent use.
type Engine struct {
	store    Store
	embedder Embedder
	judge    Judge
	now      func() time.Time
	cfg      Config

	// changes is signalled (without blocking) when Refresh applied
	// memories: see Changes.
	changesOnce sync.Once
	changes     chan struct{}

	// refreshMu serialises Refresh (a writer's own refresh and its
	// listener's would otherwise load the same rows twice).
	refreshMu sync.Mutex

	mu    sync.RWMutex
	mems  map[int64]*Memory
	ids   []int64 // sorted
	byKey map[string]int64
	lex   *index.BM25
	vec   *index.Vectors
	seq   int64
	log   changelog.Log // the memories the cache took last (View.ChangedSince)

	sessions *sessionIndex  // conversation order for the lexical context window (context_index.go)
	hot      map[int64]bool // active HOT-tier memories: the guaranteed channel's candidates
	// supersedes is the reverse of Memory.SupersededBy: newer → older ids.
	supersedes map[int64][]int64

	// ext holds what the pipelines beside the engine keep with it across
	// calls (Extension), under extMu.
	extMu sync.Mutex
	ext   map[any]any
}

// Open loads every memory from the store and builds the indexes. Memories
// without a vector from the current embedder are embedded in memory (not
// written back: opening must not write, so the inspector stays read-only).
func Open(ctx context.Context, o Options) (*Engine, error) {
	if o.Store == nil {
		return nil, Errorf(EINVALID, "engine: no store")
	}
	e := &Engine{
		store:    o.Store,
		embedder: o.Embedder,
		judge:    o.Judge,
		now:      o.Now,
		cfg:      o.Config.withDefaults(),
		mems:     make(map[int64]*Memory),
		byKey:    make(map[string]int64),
		hot:      make(map[int64]bool),
		lex:      newLexical(),

		supersedes: make(map[int64][]int64),
	}
	if e.embedder == nil {
		e.embedder = NewHashed(HashedDim)
	}
	if _, hashed := e.embedder.(*index.Hashed); !hashed {
		e.embedder = half.Vectors(e.embedder) // a dense embedder's vectors: float16
	}
	if e.now == nil {
		e.now = time.Now
	}
	e.vec = index.NewVectors(e.embedder.Dim())
	if vs, ok := o.Store.(VectorSlabs); ok {
		e.vec.Adopt(vs.VectorSlab(e.embedder.Name(), e.embedder.Dim()))
	}
	// Size the vector slab once: growing a 100 MB slab by appends copies it
	// again and again and leaves the old copies to the collector.
	total := 0
	if _, n, err := o.Store.FindMemories(ctx, MemoryFilter{Limit: 1}); err == nil {
		total = n
		e.vec.Reserve(total)
	}
	// Bulk load: cache every memory, its terms and its session position
	// first, then post the lexical index once — indexing memory by memory would
	// re-index each one's neighbours every time one joins its session.
	// Decoding the rows is the floor of an open, so two more goroutines
	// take each batch while this one decodes the next: one caches and
	// tokenises, the other fills the vector index (each in read order: the
	// result is the same as doing it in line).
	lx := openLexicon(ctx, o.Store)
	ld := e.startBulkLoad(ctx, total, lx, !o.OneShot)
	var batch []*Memory
	err := o.Store.ForEachMemory(ctx, func(m *Memory) error {
		batch = append(batch, m)
		if len(batch) == 1024 {
			ld.add(batch)
			batch = nil
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		ld.add(batch)
	}
	if ferr := ld.finish(); err == nil {
		err = ferr
	}
	if ld.moved {
		e.followRows()
	}
	if err != nil {
		return nil, fmt.Errorf("open engine: %w", err)
	}
	sort.Slice(e.ids, func(i, j int) bool { return e.ids[i] < e.ids[j] })
	e.buildLexical()
	e.saveLexicon(ctx, lx)
	return e, nil
}

// load indexes a batch of memories read from the store.
func (e *Engine) load(ctx context.Context, ms []*Memory) error {
	return e.LoadWritten(ctx, ms, nil)
}

// LoadWritten puts memories a pipeline has just written into the cache,
// given the lexical terms (LexTerms) of their contents by id, computed before
// the cache's lock: a capture batch refreshes without asking the store
// again. terms may be nil or lack some memories; those are tokenised here.
func (e *Engine) LoadWritten(ctx context.Context, ms []*Memory, terms map[int64][]string) error {
	if err := e.ensureVectors(ctx, ms); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	dirty := map[int64]bool{}
	for _, m := range ms {
		old, existed := e.cache(m)
		e.markLexical(m, old, existed, dirty, terms[m.ID])
	}
	e.flushLexical(dirty)
	return nil
}

// ensureVectors embeds, in memory, the memories that lack a vector from the
// current embedder.
func (e *Engine) ensureVectors(ctx context.Context, ms []*Memory) error {
	var need []*Memory
	var texts []string
	name := e.embedder.Name()
	for _, m := range ms {
		if m.Embedder != name || len(m.Embedding) != e.embedder.Dim() {
			need = append(need, m)
			texts = append(texts, m.Content)
		}
	}
	if len(need) == 0 {
		return nil
	}
	vecs, err := e.embedder.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed with %s: %w", name, err)
	}
	for i, m := range need {
		m.Embedding, m.Embedder = vecs[i], name
	}
	return nil
}

// cache replaces the cached copy of m and every index entry but the
// lexical one, and returns the copy it replaced. Caller holds mu (or owns
// the engine, at open).
func (e *Engine) cache(m *Memory) (old *Memory, existed bool) {
	old, existed = e.cacheFields(m)
	if e.cacheVector(m) {
		e.followRows()
	}
	return old, existed
}

// cacheFields is cache without the vector index.
func (e *Engine) cacheFields(m *Memory) (old *Memory, existed bool) {
	old, existed = e.mems[m.ID]
	if existed || m.SupersededBy != 0 {
		e.indexSupersession(old, m)
	}
	if existed && old.Key != "" && e.byKey[old.Key] == m.ID {
		delete(e.byKey, old.Key)
	}
	e.mems[m.ID] = m
	e.log.Add(m.ID, m.Seq)
	if !existed {
		e.ids = append(e.ids, m.ID)
		if n := len(e.ids); n > 1 && e.ids[n-2] > m.ID {
			sort.Slice(e.ids, func(i, j int) bool { return e.ids[i] < e.ids[j] })
		}
	}
	if m.Key != "" {
		e.byKey[m.Key] = m.ID
	}
	if m.Tier == TierHot && m.Status == StatusActive {
		e.hot[m.ID] = true
	} else {
		delete(e.hot, m.ID)
	}
	if m.Seq > e.seq {
		e.seq = m.Seq
	}
	return old, existed
}

// cacheVector puts m's vector into the vector index, and the index's row
// becomes the memory's vector: one copy of each vector, not two (100 MB at
// 100k memories). The row is the vector normalised, which no similarity
// can tell from the original. It reports whether the slab moved, after
// which every cached memory must follow its row (followRows). It touches
// only e.vec and m.Embedding.
func (e *Engine) cacheVector(m *Memory) (moved bool) {
	moves := e.vec.Moves()
	if e.vec.Set(m.ID, m.Embedding) {
		m.Embedding, _ = e.vec.Get(m.ID)
	}
	return e.vec.Moves() != moves
}

// followRows points every cached memory's vector at its row of the vector
// index again, after the slab moved.
func (e *Engine) followRows() {
	for id, c := range e.mems {
		if row, ok := e.vec.Get(id); ok && len(c.Embedding) == len(row) {
			c.Embedding = row
		}
	}
}

// Extension returns the value a pipeline package keeps with this engine
// under key, made by mk on its first use: the capture keeps its prepared
// Capturer and its dedupe index there, so that every caller capturing
// through one engine shares them. key should be a type of the package's
// own, so that no other package can collide with it.
func (e *Engine) Extension(key any, mk func() any) any {
	e.extMu.Lock()
	defer e.extMu.Unlock()
	if v, ok := e.ext[key]; ok {
		return v
	}
	if e.ext == nil {
		e.ext = map[any]any{}
	}
	v := mk()
	e.ext[key] = v
	return v
}

// HotIDs returns the ids of the active HOT-tier memories, in id order: the
// candidates of the guaranteed channel. The set is kept current by every
// cache update, so a recall does not ask the store for it.
func (e *Engine) HotIDs() []int64 {
	e.mu.RLock()
	ids := make([]int64, 0, len(e.hot))
	for id := range e.hot {
		ids = append(ids, id)
	}
	e.mu.RUnlock()
	slices.Sort(ids)
	return ids
}

// Store returns the store the engine reads and writes.
func (e *Engine) Store() Store { return e.store }

// Embedder returns the embedder in use.
func (e *Engine) Embedder() Embedder { return e.embedder }

// Judge returns the configured L3 judge, or nil when the rules decide.
func (e *Engine) Judge() Judge { return e.judge }

// Config returns the effective configuration.
func (e *Engine) Config() Config { return e.cfg }

// Now is the engine's clock.
func (e *Engine) Now() time.Time { return e.now().UTC() }

// Update runs fn in one store transaction and then refreshes the caches.
func (e *Engine) Update(ctx context.Context, fn func(q Queries) error) error {
	if err := e.store.Update(ctx, fn); err != nil {
		return err
	}
	return e.Refresh(ctx)
}

// Memory returns a copy of the cached memory with this id (any status).
func (e *Engine) Memory(id int64) (Memory, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	m, ok := e.mems[id]
	if !ok {
		return Memory{}, false
	}
	return *m, true
}

// MemoryByKey returns a copy of the memory with this key.
func (e *Engine) MemoryByKey(key string) (Memory, bool) {
	e.mu.RLock()
	id, ok := e.byKey[key]
	e.mu.RUnlock()
	if !ok {
		return Memory{}, false
	}
	return e.Memory(id)
}

// Len is the number of cached memories (any status).
func (e *Engine) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.ids)
}

// EachMemory calls fn for every cached memory in id order until fn returns
// false. fn runs under a read lock: it must not call back into the engine's
// write paths, and must not keep m.
func (e *Engine) EachMemory(fn func(m *Memory) bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, id := range e.ids {
		if !fn(e.mems[id]) {
			return
		}
	}
}

// Embed embeds texts with the engine's embedder.
func (e *Engine) Embed(ctx context.Context, texts ...string) ([][]float32, error) {
	return e.embedder.Embed(ctx, texts)
}

// PrepareMemory fills the derived and default fields of a memory about to
// be inserted: hash, vector, status, tier, scope, kind and timestamps.
func (e *Engine) PrepareMemory(ctx context.Context, m *Memory) error {
	return e.PrepareMemoryHashed(ctx, m, ContentHash(m.Content))
}

// PrepareMemoryHashed is PrepareMemory given ContentHash(m.Content).
func (e *Engine) PrepareMemoryHashed(ctx context.Context, m *Memory, hash string) error {
	if err := ValidateMemory(m); err != nil {
		return err
	}
	m.Hash = hash
	if m.Embedder != e.embedder.Name() || len(m.Embedding) != e.embedder.Dim() {
		vs, err := e.embedder.Embed(ctx, []string{m.Content})
		if err != nil {
			return fmt.Errorf("embed with %s: %w", e.embedder.Name(), err)
		}
		m.Embedding, m.Embedder = vs[0], e.embedder.Name()
	}
	if m.Status == "" {
		m.Status = StatusActive
	}
	if m.Tier == "" {
		m.Tier = TierWarm
	}
	if m.Scope == "" {
		m.Scope = ScopeGlobal
	}
	if m.Kind == "" {
		m.Kind = KindFact
	}
	if m.Type == "" {
		m.Type = "note"
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = e.Now()
	}
	if m.LastAccessedAt.IsZero() {
		m.LastAccessedAt = m.CreatedAt
	}
	return nil
}

// AddMemory prepares and inserts one memory, audited under a, and refreshes
// the caches.
func (e *Engine) AddMemory(ctx context.Context, m *Memory, a Actor) error {
	if err := e.PrepareMemory(ctx, m); err != nil {
		return err
	}
	return e.Update(ctx, func(q Queries) error { return q.InsertMemory(ctx, m, a) })
}

// AddMemoryInBatch is AddMemory under a batch of kind BatchAdd the store
// issues in the same transaction (`memtrace add`): the add is listed by
// `memtrace batches` and undone by `memtrace rollback BATCH` like every
// curator write. It returns the batch id.
func (e *Engine) AddMemoryInBatch(ctx context.Context, m *Memory, actor string) (string, error) {
	if err := e.PrepareMemory(ctx, m); err != nil {
		return "", err
	}
	var batch string
	err := e.Update(ctx, func(q Queries) error {
		b, err := q.NextBatchID(ctx, BatchAdd)
		if err != nil {
			return err
		}
		batch = b
		return q.InsertMemory(ctx, m, Actor{Name: actor, Batch: b})
	})
	if err != nil {
		return "", err
	}
	return batch, nil
}
