// Package golden runs golden probe sets against the recall pipeline and
// measures it on public benchmarks.
//
// A set is a YAML file (see DESIGN.md "Golden sets"): probes with a query,
// an optional time, session and project, and expectations written with
// selectors (id:N, key:K, text:substring, type:T, tier:T, kind:K). Load
// parses it once, reporting every problem with its line. A Runner recalls
// each probe read-only through a Recaller (*engine.Engine is one), Evaluate
// checks the trace's budget survivors, and the RunResult is both the
// `golden run --json` output and the baseline file format. Diff compares a
// run with a baseline: probes that broke or were fixed, probes missing from
// the run (a failure), survivors that entered or left, and metric deltas.
//
// fixture.go builds a set's fixture database (a fresh file the set's
// messages are captured into). locomo*.go load the LoCoMo benchmark,
// normalise its evidence references, accumulate turn-level recall@k per
// category, and hold the plain BM25 reference the pipeline is compared
// with; bench_*.go are the `memtrace bench` runs (locomo, recall, open).
package golden
