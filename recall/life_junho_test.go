package recall_test

import (
	"path/filepath"
	"testing"
)

// lifeJunhoFloor is the ratchet on recall/testdata/life_junho.yaml, a
// bilingual conversation (115 messages, 16 sessions) and 37 probes written
// in session 15 before any recall change was made against it, over the
// mechanism classes the held-out life sets lose: paraphrase, a person or
// pet named by role ("my wife", "my rabbit") or in the other script
// (Sena/세나, Mochi/모찌), two-hop, retraction, updates with time travel,
// named and relative periods, counting, two people named Jisoo, nothing
// relevant, preference with exception and forgetting. 19/37 on main
// before any change, 23/37 after the liferecall branch's recall changes,
// 24/37 with the relative relevance floor at 0.4 of the best (locomo5).
// Raise it when a change passes more; never lower it.
const lifeJunhoFloor = 24.0 / 37

func TestLifeJunhoPassRate(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 115 messages")
	}
	heldoutLifePassRate(t, filepath.Join("testdata", "life_junho.yaml"), lifeJunhoFloor)
}
