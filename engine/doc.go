// Package engine is the domain root of memtrace: the memory model and its
// records (memories, captures, corrections, proposals, batches, traces),
// the ports it needs from the outside world (Store and its Queries, Judge,
// Embedder), its errors, the time grammar, the forgetting and recognition
// maths, the tiers' scopes, and the Engine: the cache of every memory with
// its BM25 and vector indexes (engine/index), read by the pipelines
// through View and kept current by Refresh.
//
// The pipelines live beside it, each a package: recall (what is
// recalled), capture (what is remembered), curate (what a curator
// changes) and tiers (heartbeat and the Markdown tiers). It imports only
// the standard library and leaf packages of its own (engine/index,
// engine/textnorm); the SQLite and PostgreSQL stores live in package
// store, the Ollama judge and embedder at the edge, and the CLI
// (internal/cli) wires them together.
package engine
