package engine

import (
	"context"
	"encoding/json"
	"time"
)

// Queries is everything the engine reads and writes. The Store runs each call
// in its own transaction; inside Store.Update the same calls share one.
type Queries interface {
	// Memories.
	GetMemory(ctx context.Context, id int64) (*Memory, error) // ENOTFOUND
	GetMemoryByKey(ctx context.Context, key string) (*Memory, error)
	FindMemories(ctx context.Context, f MemoryFilter) ([]*Memory, int, error)
	// InsertMemory sets m.ID and m.Seq and writes a "create" audit row.
	InsertMemory(ctx context.Context, m *Memory, a Actor) error
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

	// Captures.
	InsertCapture(ctx context.Context, c *CaptureRecord) error
	FindCaptures(ctx context.Context, f CaptureFilter) ([]*CaptureRecord, int, error)
	CaptureReasonCounts(ctx context.Context) ([]ReasonCount, error)
	// CaptureExists reports whether a message id was already offered (for
	// idempotent imports).
	CaptureExists(ctx context.Context, messageID string) (bool, error)
	// CapturesExist returns which of the message ids were already offered:
	// one query for a batch instead of one per message.
	CapturesExist(ctx context.Context, messageIDs []string) (map[string]bool, error)

	// The review queue of held captures (review.go).
	ReviewQueries

	// Corrections.
	GetCorrection(ctx context.Context, lessonKey string) (*Correction, error) // ENOTFOUND
	SaveCorrection(ctx context.Context, c *Correction) error                  // insert or update by LessonKey
	FindCorrections(ctx context.Context, status string) ([]*Correction, error)

	// Proposals.
	InsertProposal(ctx context.Context, p *Proposal) error
	UpdateProposal(ctx context.Context, p *Proposal) error
	GetProposal(ctx context.Context, id int64) (*Proposal, error)
	FindProposals(ctx context.Context, f ProposalFilter) ([]*Proposal, error)

	// Audit.
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

	// Golden runs and stored traces.
	SaveGoldenRun(ctx context.Context, r *GoldenRun) error
	FindGoldenRuns(ctx context.Context, file string, limit int) ([]*GoldenRun, error)
	SaveTrace(ctx context.Context, t *StoredTrace, keep int) error // keeps the newest `keep`
	FindTraces(ctx context.Context, limit int) ([]*StoredTrace, error)
	GetTrace(ctx context.Context, id int64) (*StoredTrace, error)

	// Sources of imported memories (`memtrace import memories`).
	SaveMemorySource(ctx context.Context, s *MemorySource) error
	GetMemorySource(ctx context.Context, memoryID int64) (*MemorySource, error) // ENOTFOUND: captured, not imported

	// Settings: small key/value pairs (e.g. the embedder an index was built with).
	GetSetting(ctx context.Context, key string) (string, error) // "" when unset
	SetSetting(ctx context.Context, key, value string) error
}

// AuditFilter selects audit rows.
type AuditFilter struct {
	AfterID int64 // rows with an id above it (0: every row)
	// Superseded keeps the rows of memories that are superseded now (the
	// Curate tab finds the row that wrote each standing link among them).
	Superseded bool
}

// BatchInfo summarises one audited batch.
type BatchInfo struct {
	Batch      string    `json:"batch"`
	Actor      string    `json:"actor"`
	Rows       int       `json:"rows"`
	At         time.Time `json:"at"`
	RolledBack bool      `json:"rolled_back"`
	// Effect counts what the batch did, one kind per audit row.
	Effect BatchEffect `json:"effect"`
	// CanRollback: not rolled back, and no later change that still stands
	// touches its memories; WhyNot says otherwise in words.
	CanRollback bool   `json:"can_rollback"`
	WhyNot      string `json:"why_not,omitempty"`
	// Kind is the action that made the batch (BatchCapture, BatchApprove,
	// … BatchRollback), recorded when the store issued its id; "" for an id
	// a caller chose. RollbackOf is the batch a rollback undid.
	Kind       string `json:"kind,omitempty"`
	RollbackOf string `json:"rollback_of,omitempty"`
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
	Close() error
}

// BackupInfo describes what Store.Backup wrote.
type BackupInfo struct {
	DB         string `json:"db"`
	DBSHA256   string `json:"db_sha256"`
	Dump       string `json:"dump"`
	DumpSHA256 string `json:"dump_sha256"`
	Memories   int    `json:"memories"`
	// MemtraceVersion is the version of the memtrace that wrote the backup
	// (the dump's "memtrace" object has its commit and build date too).
	MemtraceVersion string `json:"memtrace_version"`
}

// MemorySource is where an imported memory came from.
type MemorySource struct {
	MemoryID   int64           `json:"memory_id"`
	Source     string          `json:"source"`    // jsonl, chroma, mem0, memory-files
	SourceID   string          `json:"source_id"` // the id the source gave it
	Position   string          `json:"position"`
	Metadata   json.RawMessage `json:"metadata"`
	ImportedAt time.Time       `json:"imported_at"`
}
