// Package engine is the domain root of memtrace: the memory model, the
// interfaces it needs from the outside world (Store, Judge, Embedder), the
// capture pipeline that decides what is remembered, the recall pipeline that
// decides what is recalled, and the forgetting math that decides for how long.
//
// It imports only the standard library and its own leaf sub-packages. The
// SQLite implementation of Store lives in package store; the Ollama judge and
// embedder live in engine/judge; the CLI (internal/cli) wires them together.
package engine
