package engine

import "time"

// Stage names of the recall pipeline, in order. They are a published
// contract (`recall --json`, golden runs, OpenTelemetry spans).
var StageNames = [...]string{
	"preprocess", "candidates", "exclude", "rerank", "temporal",
	"guaranteed", "mmr", "merge", "blend", "prompt", "budget",
}

// Query is one recall request.
type Query struct {
	Text    string    `json:"text"`
	At      time.Time `json:"at"` // the time the recall happens at (time override)
	Session string    `json:"session,omitempty"`
	Project string    `json:"project,omitempty"`
	K       int       `json:"k"`
	Budget  int       `json:"budget"` // characters
	// ReadOnly recalls change nothing in the store (the inspector's mode and
	// every simulation). A committed recall updates access statistics and
	// association boosts.
	ReadOnly    bool `json:"read_only"`
	IncludeCold bool `json:"include_cold,omitempty"`
	// IncludeSuperseded recalls superseded memories too, labelled former
	// (as a query that asks about the past does, AsksAboutFormer).
	IncludeSuperseded bool `json:"include_superseded,omitempty"`
}

// TraceItem is one memory as a stage saw it. Scores are higher-is-better;
// distances (named *_distance) are lower-is-better; never mixed.
type TraceItem struct {
	ID      int64              `json:"id"`
	Key     string             `json:"key"`
	Text    string             `json:"text"`
	Type    string             `json:"type,omitempty"`
	Kind    Kind               `json:"kind,omitempty"`
	Tier    Tier               `json:"tier,omitempty"`
	Channel string             `json:"channel,omitempty"`
	Scores  map[string]float64 `json:"scores"`
	// Dropped is why the stage dropped the memory, for people; "" when it
	// was kept. Its wording may change: programs read DropKind.
	Dropped string `json:"dropped,omitempty"`
	// DropKind is Dropped for programs: one of DropKinds, set exactly when
	// Dropped is.
	DropKind DropKind `json:"drop_kind,omitempty"`
	// *TermMatch (rerank stage only, nil elsewhere; its fields are inlined
	// in the JSON): the query words the memory shares. Read it with Terms.
	*TermMatch
	// Recognised (temporal stage only): kept although forgotten in free
	// recall at the recall's time, because the query cues it (cue_strength ≥
	// RecognitionCue) and still recognisable. Further facts about an item travel as fields like
	// this one (e.g. superseded_by when knowledge updates land).
	Recognised bool `json:"recognised,omitempty"`
	// ForgetAt and UnrecognisableAt (temporal stage only) are the item's
	// two horizons (see DecayHelp): when it drops out of free recall and
	// when not even a specific cue finds it any more.
	ForgetAt         time.Time `json:"forget_at,omitzero"`
	UnrecognisableAt time.Time `json:"unrecognisable_at,omitzero"`
	// Superseded: a former fact at the recall's time, kept because the
	// query asks about the past or include_superseded; SupersededBy is the
	// newer memory and ValidTo when this one stopped holding.
	Superseded   bool      `json:"superseded,omitempty"`
	SupersededBy int64     `json:"superseded_by,omitempty"`
	ValidTo      time.Time `json:"valid_to,omitzero"`
}

// TermMatch is what a memory shares with the query, word by word (the
// relevance gate's evidence, RelevanceGateHelp).
type TermMatch struct {
	// MatchedTerms: the query terms in the memory's own text, specific ones
	// first; GenericTerms the generic words among them (textnorm.IsGeneric),
	// which are no evidence; ContextTerms the specific query terms only its
	// conversational neighbours hold, listed when its own words are not
	// evidence enough.
	MatchedTerms []string `json:"matched_terms,omitempty"`
	GenericTerms []string `json:"generic_terms,omitempty"`
	ContextTerms []string `json:"context_terms,omitempty"`
}

// Terms is the item's TermMatch, empty when it has none.
func (it TraceItem) Terms() TermMatch {
	if it.TermMatch == nil {
		return TermMatch{}
	}
	return *it.TermMatch
}

// StageTrace records one stage: how many items came in, how many went out,
// and every item with its scores and, when dropped, why.
type StageTrace struct {
	Name   string            `json:"name"`
	In     int               `json:"in"`
	Out    int               `json:"out"`
	Items  []TraceItem       `json:"items"`
	Notes  map[string]string `json:"notes,omitempty"`
	TookMS float64           `json:"took_ms"`
}

// Survivor is a memory that made it into the prompt.
type Survivor struct {
	ID   int64  `json:"id"`
	Key  string `json:"key"`
	Text string `json:"text"`
	Type string `json:"type,omitempty"`
	Kind Kind   `json:"kind,omitempty"`
	Tier Tier   `json:"tier,omitempty"`
	// Channel is "semantic", "fact" or "guaranteed".
	Channel string `json:"channel,omitempty"`
	// A former fact (superseded at the recall's time, recalled because the
	// query asks about the past): the newer memory and when this one
	// stopped holding. The prompt line says "[until DATE]".
	SupersededBy int64     `json:"superseded_by,omitempty"`
	ValidTo      time.Time `json:"valid_to,omitzero"`
}

// Trace is the full record of one recall; its JSON is the `recall --json`
// contract.
type Trace struct {
	Query       string       `json:"query"`
	At          time.Time    `json:"at"`
	Session     string       `json:"session,omitempty"`
	Project     string       `json:"project,omitempty"`
	K           int          `json:"k"`
	Budget      int          `json:"budget"`
	ReadOnly    bool         `json:"read_only"`
	Stages      []StageTrace `json:"stages"`
	Prompt      string       `json:"prompt"`
	PromptChars int          `json:"prompt_chars"`
	Survivors   []Survivor   `json:"survivors"`
	Guaranteed  int          `json:"guaranteed"` // survivors from the guaranteed channel
	// Fallback is set when the recall could not use every channel: "lexical"
	// when the embedder was unavailable (the preprocess stage's notes say why).
	Fallback string `json:"fallback,omitempty"`
}

// Stage returns the named stage, or nil.
func (t *Trace) Stage(name string) *StageTrace {
	for i := range t.Stages {
		if t.Stages[i].Name == name {
			return &t.Stages[i]
		}
	}
	return nil
}
