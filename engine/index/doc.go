// Package index holds the search structures the engine's cache keeps over
// every memory: a BM25 index of their words (BM25, and NewContextBM25 for
// the one that also counts the words said next to a memory), the vector
// index (Vectors: flat rows, with pair postings for sparse rows and sign
// codes for dense ones), the bounded top-n heap both rank with (Hit, Push,
// Sort), and the default offline embedder (Hashed). It imports nothing of memtrace: the engine, its
// pipelines and its tests build on it.
package index
