// Package curate owns every change a curator (or the judge, with a
// curator's approval) makes to what is remembered: proposals and their
// one apply path — approve, apply --approved, reject, withdraw of the ones
// an applied proposal made moot — rollback of a batch, the triage judge
// and its control sample, the noise cleanup and the store audit, the
// Markdown add and move proposals, and the direct actions on memories
// (Quarantine, Restore, AdjustImportance, Forget). Each change is one
// transaction with an audit row per memory under one batch, so that
// `memtrace rollback BATCH` undoes it honestly.
//
// Who proposes over time (heartbeat, promotion) is package tiers'.
package curate
