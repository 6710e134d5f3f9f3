package ui

import (
	"fmt"
	"testing"
)

// shortEpisodePolicy is the policy file of the experiment screens and the
// README's capture: a 3-day episode half-life.
const shortEpisodePolicy = "../testdata/policies/short-episode.yaml"

// TestExperimentRenderGolden renders the Golden tab's experiment view on
// the demo set (the defaults against shortEpisodePolicy at +30d), W's
// confirmation, and the Trace split enter opens, at 80×24 and 120×40,
// compared with testdata/TestExperimentRenderGolden/*.golden. After a
// deliberate change of the layout:
//
//	go test ./ui -run TestExperimentRenderGolden -update
func TestExperimentRenderGolden(t *testing.T) {
	eng, db := openDemo(t)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := renderModel(t, eng, db, w, h)
			t.Cleanup(func() { _ = m.c.res.closeAll() })
			shot := func(name string, m Model) { goldenShot(t, name, m, w, h) }
			m = goTo(t, m, "Golden")
			m = drive(t, m, press("X"))
			m = typeText(t, m, shortEpisodePolicy+" @ +30d")
			m = drive(t, m, press("enter"))
			shot("experiment", m)
			shot("experiment_help", drive(t, fork(m), press("?")))
			shot("experiment_confirm", drive(t, fork(m), press("W")))
			split := drive(t, fork(m), press("enter"))
			if got := split.panes[split.active].Title(); got != "Trace" {
				t.Fatalf("enter opened %s, want the Trace split", got)
			}
			shot("experiment_split", split)
		})
	}
}
