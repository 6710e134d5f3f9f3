// Package recall owns the recall pipeline: given a query, which memories an
// agent is shown and why. Recall runs the eleven traced stages of
// engine.StageNames — preprocess, candidates (BM25, vectors and the HOT
// tier's guaranteed channel), exclude, temporal (forgetting, recognition,
// time cues), rerank, gate, mmr, guaranteed, budget and the rendered
// prompt block — over the engine's cache, read through engine.View, and
// returns the engine.Trace that records every stage's survivors and every
// drop with its reason. A recall that is not read-only commits its
// accesses and the association boosts of what it recalled together
// (association.go); Keep stores a trace for the Trace tab.
//
// It reads the cache and never writes a memory's content; the capture of
// what the agent says is package capture's, curators' changes package
// curate's.
package recall
