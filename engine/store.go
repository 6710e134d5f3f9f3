package engine

import (
	"encoding/json"
	"time"
)

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
	// Policy: of a policy batch (and its rollback), the keys it set, each
	// "key: before → after".
	Policy []string `json:"policy,omitempty"`
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
