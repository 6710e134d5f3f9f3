// Package capture owns what becomes a memory: the capture pipeline a
// message goes through — the L1/L2 noise filters (engine/filter), the
// judge or the rules (RuleJudge), the extraction gates, the injection
// guard, near-duplicate dedupe over an LSH index the engine keeps across
// calls, and the audited store of what survives, in one transaction per
// batch with every decision in the capture row's trail. Beside it: the
// corrections that count towards a lesson (Correct, Reflect, the
// canonical lesson key), knowledge updates (supersession: the rule, the
// judge's named updates, Supersede and Unsupersede by hand), the review
// queue of messages the judge held (Reoffer, StoreReviews, SkipReviews),
// importing memories from other stores (ImportMemories), and the JSONL
// message format it reads (ReadMessages).
//
// What is recalled is package recall's; what a curator approves is package
// curate's.
package capture
