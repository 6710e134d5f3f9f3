package engine

// TemporalIntent is what a query asks about in time, which decides how much
// a memory's age weighs in its ranking (DecayWeight, see DecayHelp):
//
//   - IntentNow: the present ("these days", "currently", "요즘", "지금"):
//     what is fresh is what answers it, so decay weighs fully;
//   - IntentPast: a specific past event ("when did", "last time", "그때",
//     "예전에"): the answer is old by definition, so age only breaks ties;
//   - IntentNeutral: neither, and decay weighs half.
type TemporalIntent string

// The temporal intents of a query.
const (
	IntentNeutral TemporalIntent = "neutral"
	IntentNow     TemporalIntent = "now"
	IntentPast    TemporalIntent = "past"
)

// IntentDecayWeight is β_intent of DecayHelp: how much decay weighs in the
// ranking of a query of that intent when it does not cue the memory at all,
// under cfg (its Tuning's β's; cfg with its defaults).
func IntentDecayWeight(intent TemporalIntent, cfg Config) float64 {
	switch intent {
	case IntentNow:
		return cfg.Tuning.BetaNow
	case IntentPast:
		return cfg.Tuning.BetaPast
	}
	return cfg.Tuning.BetaNeutral
}
