package engine

import (
	"context"
	"time"
)

// Erasure is the one exception to "nothing is hard-deleted" (DESIGN.md,
// "Secrets and erasure"): a curator's erase removes a memory's text from
// every table, index, trace and cache, and leaves a tombstone. It cannot
// be rolled back: the text is gone.
const (
	// StatusErased is the status of a tombstone row: its content is
	// ErasedText, it has no vector and recall never returns it.
	StatusErased Status = "erased"
	// BatchErase is the batch of one `memtrace erase`.
	BatchErase = "erase"
	// ChangeErased is the change an erase's audit row made.
	ChangeErased = "erased"
	// ErasedText is what is left where an erased text stood.
	ErasedText = "[erased]"
)

// EraseRequest names the memories one erasure removes.
type EraseRequest struct {
	IDs    []int64
	Actor  string // who: the curator
	Reason string // why, kept on the tombstone
}

// Tombstone is what an erasure leaves of one memory: who, when, why, and a
// salted SHA-256 of the erased text (TextHash = hex(sha256(salt ‖ text)),
// Salt in hex), so a curator who still holds the text can show it was this
// one, and nobody can read it back.
type Tombstone struct {
	MemoryID int64     `json:"memory_id"`
	Key      string    `json:"key,omitempty"`
	Batch    string    `json:"batch"`
	Actor    string    `json:"actor"`
	Reason   string    `json:"reason"`
	Salt     string    `json:"salt"`
	TextHash string    `json:"text_hash"`
	At       time.Time `json:"at"`
}

// Artifact is a file memtrace wrote outside the database that may hold
// memory text: a backup, a Markdown export, an --otel file. The store keeps
// a record of each so that an erasure can list what may still hold the text.
type Artifact struct {
	Kind string    `json:"kind"` // ArtifactBackup, ArtifactExport, ArtifactOTel, ArtifactJudgeCache
	Path string    `json:"path"`
	At   time.Time `json:"at"`
}

// Artifact kinds.
const (
	ArtifactBackup = "backup"
	ArtifactExport = "export"
	ArtifactOTel   = "otel"
	// ArtifactJudgeCache: a judge cache (JSONL), which an erasure rewrites.
	ArtifactJudgeCache = "judge_cache"
)

// EraseReport says what one erasure removed. Scrubbed counts the rows
// rewritten (or, for traces, removed) per table; Artifacts are the files
// written before the erasure that may still hold the text (delete them by
// hand); Compaction says what the database did so that no freed page keeps
// a byte of it (SQLite: secure_delete, VACUUM, WAL truncated; PostgreSQL:
// VACUUM FULL of the tables touched), and Pending what still has to be done.
type EraseReport struct {
	Batch      string         `json:"batch"`
	Erased     []Tombstone    `json:"erased"`
	Scrubbed   map[string]int `json:"scrubbed"`
	Artifacts  []Artifact     `json:"artifacts"`
	Compaction []string       `json:"compaction"`
	Pending    []string       `json:"pending,omitempty"`
	Reversible bool           `json:"reversible"` // always false: said, so a script cannot miss it
}

// Eraser is the store's side of erasure. It is no part of Queries: only
// the curate pipeline's Erase calls it, never an agent's door (MCP).
type Eraser interface {
	// EraseMemories erases the memories in one transaction and compacts the
	// database after it.
	EraseMemories(ctx context.Context, req EraseRequest) (*EraseReport, error)
	// Tombstones lists the erasures made, oldest first (memoryID 0: all).
	Tombstones(ctx context.Context, memoryID int64) ([]Tombstone, error)
	// RecordArtifact notes a file written outside the database.
	RecordArtifact(ctx context.Context, a Artifact) error
}
