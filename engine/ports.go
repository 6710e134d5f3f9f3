package engine

import (
	"context"
	"os"
	"time"
)

// Embedder turns texts into vectors. Implementations must be deterministic
// for the same input; Name identifies the model so that vectors built by one
// embedder are never compared with vectors from another.
type Embedder interface {
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// VectorSlabs is a store that keeps its vectors in a file it maps: the slab
// the next ForEachMemory's vectors lie in, in their order, or nil, and what
// must stay reachable while the slab is used (its memory is released after).
type VectorSlabs interface {
	VectorSlab(embedder string, dim int) (slab []float32, owner any)
}

// LexiconFiles is a store with a lexicon file beside it (engine/lexfile):
// its path ("": none) and mode, and the count of the store's erasures.
type LexiconFiles interface {
	LexiconFile() (path string, perm os.FileMode)
	Erasures(ctx context.Context) (int64, error)
}

// BatchEmbedder is an Embedder on a server: capture embeds ahead, EmbedBatch texts a call.
type BatchEmbedder interface {
	Embedder
	EmbedBatch() int
}

// Detail levels of the capture judge: high is lenient, low is strict.
const (
	DetailHigh   = "high"
	DetailMedium = "medium"
	DetailLow    = "low"
)

// CaptureInput is what the L3 judge sees of a message that passed L1 and L2.
type CaptureInput struct {
	Text    string `json:"text"`
	Role    string `json:"role"`
	Session string `json:"session,omitempty"`
	Project string `json:"project,omitempty"`
	Detail  string `json:"detail"`
	// Candidates are stored memories the message may update (knowledge
	// updates, supersede_judge.go): shown to a judge when the message
	// carries a change marker. A judge names the ones it updates in
	// CaptureVerdict.Updates by Label. The rule judge ignores them.
	Candidates []SupersedeCandidate `json:"candidates,omitempty"`
}

// SupersedeCandidate is one stored memory shown to the capture judge as
// one the message may update. Its text is untrusted: the judge delimits it.
type SupersedeCandidate struct {
	Label string    `json:"label"` // "C1", "C2" …: what the judge answers
	ID    int64     `json:"id"`
	Text  string    `json:"text"`
	At    time.Time `json:"at"` // when it was recorded
}

// CaptureVerdict is the judge's answer for a capture; its JSON shape is a
// published contract (the schema sent as Ollama's `format`).
type CaptureVerdict struct {
	Store      bool    `json:"store"`
	Kind       Kind    `json:"kind"`
	Type       string  `json:"type"`
	Importance float64 `json:"importance"`
	Reason     string  `json:"reason"`
	// Updates are the labels of the CaptureInput.Candidates the message
	// updates (the newer value of the same fact). Nil: the judge said
	// nothing about updates (the key was absent), and the rule decides;
	// empty: it updates none of them.
	Updates []string `json:"updates,omitempty"`
	// NeedsReview is set (by the judge client, not the model) when the
	// answer did not validate; it is never acted upon.
	NeedsReview bool   `json:"-"`
	Source      string `json:"-"` // "judge:<model>" or "rules"
}

// Judge is the L3 layer of the capture pipeline. With no judge configured
// the engine uses RuleJudge, and the capture result says so.
type Judge interface {
	Name() string
	JudgeCapture(ctx context.Context, in CaptureInput) (CaptureVerdict, error)
}

// The store's ports, one interface per aggregate; Queries is all of them.
// The Store runs each call in its own transaction; inside Store.Update the
// same calls share one.

// Queries is everything the engine and its pipelines read and write.
type Queries interface {
	MemoryQueries
	CaptureQueries
	ReviewQueries
	CorrectionQueries
	ProposalQueries
	AuditQueries
	TraceQueries
	SettingQueries
}

// MemoryQueries reads and writes memories and where imported ones came from.
type MemoryQueries interface {
	GetMemory(ctx context.Context, id int64) (*Memory, error) // ENOTFOUND
	GetMemoryByKey(ctx context.Context, key string) (*Memory, error)
	FindMemories(ctx context.Context, f MemoryFilter) ([]*Memory, int, error)
	// InsertMemory sets m.ID and m.Seq and writes a "create" audit row.
	InsertMemory(ctx context.Context, m *Memory, a Actor) error
	// InsertMemoryAt is InsertMemory under the id m.ID already carries (a
	// memory restored from an export into a database that never held it);
	// ECONFLICT when that id is taken.
	InsertMemoryAt(ctx context.Context, m *Memory, a Actor) error
	// UpdateMemory writes every field of m (matched by m.ID) and an audit row
	// with the row as it was before and as it is after.
	UpdateMemory(ctx context.Context, m *Memory, a Actor, action string) error
	// RecordAccess and SetBoost change only access statistics; they are
	// telemetry of recall, not curated content, and are not audited.
	RecordAccess(ctx context.Context, id int64, at time.Time) error
	SetBoost(ctx context.Context, id int64, boost float64, at time.Time) error
	// SetEmbedding replaces the vector of memory id if its content hash is
	// still hash, and reports whether it did. Vectors are derived data: not
	// audited, but seq is bumped.
	SetEmbedding(ctx context.Context, id int64, hash string, vec []float32, embedder string) (bool, error)
	// MemoriesChangedSince returns memories whose Seq > seq, and the highest
	// Seq seen.
	MemoriesChangedSince(ctx context.Context, seq int64) ([]*Memory, int64, error)
	// Sources of imported memories (`memtrace import memories`).
	SaveMemorySource(ctx context.Context, s *MemorySource) error
	GetMemorySource(ctx context.Context, memoryID int64) (*MemorySource, error) // ENOTFOUND: captured, not imported
}

// CaptureQueries logs every offered message with its decision trail.
type CaptureQueries interface {
	InsertCapture(ctx context.Context, c *CaptureRecord) error
	FindCaptures(ctx context.Context, f CaptureFilter) ([]*CaptureRecord, int, error)
	CaptureReasonCounts(ctx context.Context) ([]ReasonCount, error)
	// CaptureExists reports whether a message id was already offered (for
	// idempotent imports).
	CaptureExists(ctx context.Context, messageID string) (bool, error)
	// CapturesExist returns which of the message ids were already offered:
	// one query for a batch instead of one per message.
	CapturesExist(ctx context.Context, messageIDs []string) (map[string]bool, error)
}

// CorrectionQueries counts corrections towards lessons.
type CorrectionQueries interface {
	GetCorrection(ctx context.Context, lessonKey string) (*Correction, error) // ENOTFOUND
	SaveCorrection(ctx context.Context, c *Correction) error                  // insert or update by LessonKey
	FindCorrections(ctx context.Context, status string) ([]*Correction, error)
	// Lessons as rows: heads without occurrences; one message's or session's sightings; add one (false: held).
	GetLesson(ctx context.Context, lessonKey string) (*Correction, error) // ENOTFOUND
	LessonHeads(ctx context.Context) ([]*Correction, error)
	FindSightings(ctx context.Context, correctionID int64, messageID, session string) ([]Occurrence, error)
	AddSighting(ctx context.Context, correctionID int64, o Occurrence) (bool, error)
}

// ProposalQueries keeps the curation proposals.
type ProposalQueries interface {
	InsertProposal(ctx context.Context, p *Proposal) error
	UpdateProposal(ctx context.Context, p *Proposal) error
	GetProposal(ctx context.Context, id int64) (*Proposal, error)
	FindProposals(ctx context.Context, f ProposalFilter) ([]*Proposal, error)
}

// AuditQueries reads the audit trail and its batches, and rolls a batch back.
type AuditQueries interface {
	AuditForMemory(ctx context.Context, memoryID int64) ([]*AuditEntry, error)
	AuditForBatch(ctx context.Context, batch string) ([]*AuditEntry, error)
	// FindAudit returns the audit rows f selects, oldest first.
	FindAudit(ctx context.Context, f AuditFilter) ([]*AuditEntry, error)
	// Batches lists batch ids with their row counts, newest first.
	Batches(ctx context.Context, limit int) ([]BatchInfo, error)
	// NextBatchID returns a batch id never handed out before in this
	// database: kind, the clock's time and a counter the database keeps
	// (FormatBatchID).
	NextBatchID(ctx context.Context, kind string) (string, error)
	// BatchKind returns the kind of a batch the store issued and, for a
	// rollback, the batch it undid (BatchInfo.Kind, RollbackOf); "" for an
	// id a caller chose.
	BatchKind(ctx context.Context, batch string) (kind, rollbackOf string, err error)
	// PlanRollback computes what RollbackBatch would do, writing nothing.
	PlanRollback(ctx context.Context, batch string) (*RollbackPlan, error)
	// RollbackBatch restores every memory changed by batch to its state
	// before the batch, audited under a new batch "rollback:<batch>". It
	// returns how many memories the rollback's audit rows show changed.
	// Inside Store.Update it shares the caller's transaction.
	RollbackBatch(ctx context.Context, batch string, actor string) (int, error)
}

// TraceQueries keeps recall traces for later inspection.
type TraceQueries interface {
	SaveTrace(ctx context.Context, t *StoredTrace, keep int) error // keeps the newest `keep`
	FindTraces(ctx context.Context, limit int) ([]*StoredTrace, error)
}

// SettingQueries keeps small key/value pairs (the embedder an index was built with, the pinned clock, review marks).
type SettingQueries interface {
	GetSetting(ctx context.Context, key string) (string, error) // "" when unset
	SetSetting(ctx context.Context, key, value string) error
}

// ReviewQueries keeps the review queue of held captures.
type ReviewQueries interface {
	// SaveReview inserts the item, or updates the one with the same
	// MessageID, and sets r.ID.
	SaveReview(ctx context.Context, r *ReviewItem) error
	// FindReviews returns the items matching f in id order, and how many
	// match in all.
	FindReviews(ctx context.Context, f ReviewFilter) ([]*ReviewItem, int, error)
	// GetReviewByMessage returns the item of a message id, or ENOTFOUND.
	GetReviewByMessage(ctx context.Context, messageID string) (*ReviewItem, error)
}

// Store is the durable source of truth. Indexes in the engine are caches
// derived from it.
type Store interface {
	Queries
	// Update runs fn in one transaction: all of it commits or none does.
	Update(ctx context.Context, fn func(q Queries) error) error
	// ForEachMemory streams every memory (any status) in id order.
	ForEachMemory(ctx context.Context, fn func(*Memory) error) error
	// Backup writes an online SQLite backup and a JSON dump of the memories
	// to dir, each with a .sha256 file beside it.
	Backup(ctx context.Context, dir string) (*BackupInfo, error)
	// FilePerm is the mode of files written from the store's contents
	// (exports, run records): its database file's own read and write bits,
	// 0600 for a store without a file (PostgreSQL).
	FilePerm() os.FileMode
	Close() error
}
