package cli

import (
	"flag"
	"fmt"
	"math"
	"memtrace/capture"
	"slices"
	"strings"

	"memtrace/engine"
)

// cmdAdd runs `memtrace add`: one memory written directly — no filters, no
// gates — audited as a curator write.
func cmdAdd(fs *flag.FlagSet) runFunc {
	kind := fs.String("kind", string(engine.KindFact), "`KIND`: fact or episode")
	typ := fs.String("type", "note", "`TYPE` label: "+strings.Join(engine.Types(), ", "))
	importance := fs.Float64("importance", 0.5, "importance 0..1")
	key := fs.String("key", "", "stable external id `K` (unique)")
	scope := fs.String("scope", engine.ScopeGlobal, "`SCOPE`: global, project:NAME or domain:NAME")
	tier := fs.String("tier", string(engine.TierWarm), "`TIER`: hot, warm or cold")
	session := fs.String("session", "", "`SESSION` the memory belongs to")
	asJSON := fs.Bool("json", false, "print the memory as JSON")
	return func(e *env, words []string) error {
		text, found := capture.RedactSecrets(strings.TrimSpace(strings.Join(words, " ")))
		if len(found) > 0 {
			fmt.Fprintf(e.stderr, "secret values replaced by placeholders (%s); `memtrace help secrets` lists the patterns\n", strings.Join(found, ", "))
		}
		switch {
		case text == "":
			return usageError{"want the memory TEXT"}
		case *kind != string(engine.KindFact) && *kind != string(engine.KindEpisode):
			return usageError{fmt.Sprintf("--kind %q: want fact or episode", *kind)}
		case math.IsNaN(*importance) || *importance < 0 || *importance > 1:
			return usageError{fmt.Sprintf("--importance %g: want a number from 0 to 1", *importance)}
		case *scope != engine.ScopeGlobal && !strings.HasPrefix(*scope, "project:") && !strings.HasPrefix(*scope, "domain:"):
			return usageError{fmt.Sprintf("--scope %q: want global, project:NAME or domain:NAME", *scope)}
		case *tier != string(engine.TierHot) && *tier != string(engine.TierWarm) && *tier != string(engine.TierCold):
			return usageError{fmt.Sprintf("--tier %q: want hot, warm or cold", *tier)}
		case !slices.Contains(engine.Types(), *typ):
			return usageError{fmt.Sprintf("--type %q: want one of %s", *typ, strings.Join(engine.Types(), ", "))}
		}
		eng, closeDB, err := openOrCreate(e)
		if err != nil {
			return err
		}
		defer closeDB()
		if *key != "" {
			if m, ok := eng.MemoryByKey(*key); ok {
				return engine.Errorf(engine.ECONFLICT, "key %q is already memory %d; pick another --key or see `memtrace show key:%s`", *key, m.ID, *key)
			}
		}
		m := &engine.Memory{Key: *key, Content: text, Kind: engine.Kind(*kind), Type: *typ, Importance: *importance,
			Scope: *scope, Tier: engine.Tier(*tier), Session: *session, Role: "curator"}
		batch, err := eng.AddMemoryInBatch(e.ctx, m, engine.ActorCurator)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, m)
		}
		fmt.Fprintf(e.stdout, "added memory %d (%s %s, importance %.2f, %s) in batch %s\nundo with: memtrace rollback %s\n",
			m.ID, m.Kind, m.Type, m.Importance, m.Scope, batch, batch)
		return nil
	}
}
