package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/inspector"
)

// TestCompareAcrossAnUpdate: on the demo, "where do I live" compared
// before the move (2026-02-01) and after it (2026-06-01) lists the old
// fact (m0448, Suwon) as forgotten because superseded — drop_kind
// superseded, superseded_by the update, valid_to the day of the move — and
// the update (m0465, "We moved to Seoul … Mapo") as new. At A the update
// does not exist yet, so nothing about it can be "left".
func TestCompareAcrossAnUpdate(t *testing.T) {
	db := demoDB(t)
	out, stderr, code := runRecallCLI(t, "--db", db, "compare", "where do I live", "--at-a", "2026-02-01", "--at-b", "2026-06-01", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var c inspector.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("not a comparison: %v\n%s", err, out)
	}
	keys := func(cs []inspector.Change) []string {
		var ks []string
		for _, ch := range cs {
			ks = append(ks, ch.Key)
		}
		return ks
	}
	var old *inspector.Change
	for i := range c.Forgotten {
		if c.Forgotten[i].Key == "m0448" {
			old = &c.Forgotten[i]
		}
	}
	if old == nil {
		t.Fatalf("m0448 not forgotten between A and B: forgotten %v, left %v, new %v", keys(c.Forgotten), keys(c.Left), keys(c.New))
	}
	if old.DropKind != engine.DropSuperseded || old.Stage != "exclude" || !strings.Contains(old.Reason, "superseded by #") ||
		old.SupersededBy == 0 || old.ValidTo.Format("2006-01-02") != "2026-02-14" || !old.ForgetAt.Equal(old.ValidTo) {
		t.Errorf("m0448 forgotten as %+v, want drop_kind superseded at exclude, superseded_by the update, valid_to 2026-02-14", *old)
	}
	var nw *inspector.Change
	for i := range c.New {
		if c.New[i].Key == "m0465" {
			nw = &c.New[i]
		}
	}
	if nw == nil || nw.ID != old.SupersededBy || nw.DropKind != engine.DropNotYetCreated {
		t.Fatalf("the update m0465 (#%d) is not new at B, not yet created at A: new %+v", old.SupersededBy, c.New)
	}
	for _, ch := range c.Left {
		if ch.Key == "m0448" || ch.Key == "m0465" {
			t.Errorf("%s listed as left: %+v", ch.Key, ch)
		}
	}
	text, _, _ := runRecallCLI(t, "--db", db, "compare", "where do I live", "--at-a", "2026-02-01", "--at-b", "2026-06-01")
	if !strings.Contains(text, "forgotten between A and B (1)") || !strings.Contains(text, "superseded by #") ||
		!strings.Contains(text, "on 2026-02-14  I live in Suwon") {
		t.Errorf("compare text does not show the switch:\n%s", text)
	}
	// Back the other way, the update is left at the earlier time (not yet
	// created) and the old fact is new there: current again.
	out, _, _ = runRecallCLI(t, "--db", db, "compare", "where do I live", "--at-a", "2026-06-01", "--at-b", "2026-02-01", "--json")
	var back inspector.Comparison
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(keys(back.New), ","), "m0448") || !strings.Contains(strings.Join(keys(back.Left), ","), "m0465") {
		t.Errorf("reversed: new %v, left %v; want m0448 new and m0465 left", keys(back.New), keys(back.Left))
	}
}
