package engine

// DropKind says why a recall stage dropped a memory, for programs: a closed
// set of identifiers, the machine-readable twin of TraceItem.Dropped (which
// is for people and free to change wording). Code groups, counts and
// branches on the kind, never on the prose. The stage that dropped the
// memory is the StageTrace's Name, not part of the kind.
type DropKind string

// The drop kinds, by the stage that produces them. DropKinds lists them
// with their meaning; `memtrace help json` and docs/inspector.md print that
// list.
const (
	// exclude
	DropQuarantined   DropKind = "quarantined"
	DropArchived      DropKind = "archived"
	DropNotRecallable DropKind = "not_recallable"
	DropExcludedRole  DropKind = "excluded_role"
	DropOtherProject  DropKind = "other_project"
	DropSessionEcho   DropKind = "session_echo"
	DropSuperseded    DropKind = "superseded"
	// rerank
	DropLowIDFShare   DropKind = "low_idf_share"
	DropGenericOnly   DropKind = "generic_only"
	DropNeighbourOnly DropKind = "neighbour_only"
	DropVectorOnly    DropKind = "vector_only"
	DropBelowFloor    DropKind = "below_floor"
	// temporal
	DropNotYetCreated DropKind = "not_yet_created"
	DropForgotten     DropKind = "forgotten"
	// DropUnrecognisable: past the recognition horizon (UnrecognisableAt).
	DropUnrecognisable DropKind = "unrecognisable"
	// guaranteed
	DropBelowGate     DropKind = "below_gate"
	DropGuaranteedCap DropKind = "guaranteed_cap"
	// mmr
	DropMMRRedundant  DropKind = "mmr_redundant"
	DropMMRBeyondKeep DropKind = "mmr_beyond_keep"
	// merge
	DropSlotsFull       DropKind = "slots_full"
	DropGuaranteedOverK DropKind = "guaranteed_over_k"
	// blend
	DropSessionShareFull DropKind = "session_share_full"
	// budget
	DropOverBudget DropKind = "over_budget"
)

// DropKindInfo is one drop kind with the stage that produces it and what it
// means.
type DropKindInfo struct {
	Kind    DropKind
	Stage   string
	Meaning string
}

// DropKinds is the closed set of drop kinds in stage order: every kind a
// recall can put in TraceItem.DropKind, and no other.
func DropKinds() []DropKindInfo {
	return []DropKindInfo{
		{DropQuarantined, "exclude", "status quarantined: noise kept for review"},
		{DropArchived, "exclude", "COLD tier, and the query does not ask for it"},
		{DropNotRecallable, "exclude", "a status neither active nor archived"},
		{DropExcludedRole, "exclude", "written by an excluded source role"},
		{DropOtherProject, "exclude", "scoped to another project than the query's"},
		{DropSessionEcho, "exclude", "in the query's session, inside the echo window"},
		{DropSuperseded, "exclude", "superseded by a newer memory at the recall's time, and the query does not ask about the past"},
		{DropLowIDFShare, "rerank", "specific query terms in its own text, but under 10% of the query's idf mass; specific_cosine_score < 0.50"},
		{DropGenericOnly, "rerank", "shares only generic words (take, every, 하다, 모든 …) with the query; specific_cosine_score < 0.50"},
		{DropNeighbourOnly, "rerank", "specific query terms only in its neighbours' text, no query word of its own; specific_cosine_score < 0.50"},
		{DropVectorOnly, "rerank", "found by vector similarity alone, no query term in its own text or its neighbours'; specific_cosine_score < 0.50"},
		{DropBelowFloor, "rerank", "relevance_score below the relevance floor"},
		{DropNotYetCreated, "temporal", "created after the recall's time (at)"},
		{DropForgotten, "temporal", "decay × importance < threshold (out of free recall), cue_strength below recognition"},
		{DropUnrecognisable, "temporal", "past the recognition horizon: recognition_decay × importance < threshold, no cue finds it"},
		{DropBelowGate, "guaranteed", "HOT, relevance_score below the guaranteed gate"},
		{DropGuaranteedCap, "guaranteed", "HOT, past the guaranteed cap"},
		{DropMMRRedundant, "mmr", "near-duplicate of a memory already selected"},
		{DropMMRBeyondKeep, "mmr", "beyond the 2·k memories MMR keeps"},
		{DropSlotsFull, "merge", "the k slots are filled (channel quotas)"},
		{DropGuaranteedOverK, "merge", "more guaranteed memories than k"},
		{DropSessionShareFull, "blend", "the current session's share of k is full"},
		{DropOverBudget, "budget", "its prompt line does not fit the budget"},
	}
}
