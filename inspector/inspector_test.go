package inspector_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/recall"
)

const day = 24 * time.Hour

// keys lists the keys of a comparison's changes, in order.
func keys(cs []inspector.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Key
	}
	return out
}

func survivorKeys(tr *engine.Trace) []string {
	out := make([]string, len(tr.Survivors))
	for i, s := range tr.Survivors {
		out[i] = s.Key
	}
	return out
}

// recognisedIn reports that the temporal stage of tr kept memory id by
// recognition.
func recognisedIn(tr *engine.Trace, id int64) bool {
	for _, it := range tr.Stage("temporal").Items {
		if it.ID == id {
			return it.Recognised
		}
	}
	return false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// The inspector never writes: recalls (even one asking for a commit),
// comparisons and forecasts leave the database file and its log byte for
// byte as they were. A committed recall afterwards does change them, which
// shows the checksum sees a write.
func TestInspectorWritesNothing(t *testing.T) {
	d := openDemo(t)
	ctx := context.Background()
	before := fileSum(t, d.path)
	m0216, ok := d.e.MemoryByKey("m0216")
	if !ok {
		t.Fatal("the demo lacks m0216 (the Chungju apples)")
	}
	for _, at := range []string{"now", "+30d", "-10d", "2026-12-01T00:00:00Z"} {
		when, err := inspector.At(d.e, at)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := inspector.Recall(ctx, d.e, engine.Query{Text: "충주 시에 충주 사과가 맛있었지?", At: when, ReadOnly: false})
		if err != nil {
			t.Fatal(err)
		}
		if !tr.ReadOnly || !tr.At.Equal(when) {
			t.Errorf("at %s: read_only %v, at %v", at, tr.ReadOnly, tr.At)
		}
	}
	if _, err := inspector.Compare(ctx, d.e, engine.Query{Text: "충주 사과"}, d.now, d.now.Add(90*day)); err != nil {
		t.Fatal(err)
	}
	if len(inspector.Forecast(d.e, d.now, 20)) != 20 {
		t.Error("forecast of the demo has fewer than 20 entries")
	}
	if after := fileSum(t, d.path); after != before {
		t.Fatal("the database file changed during read-only inspection")
	}
	if m, _ := d.e.Memory(m0216.ID); m.AccessCount != m0216.AccessCount || !m.LastAccessedAt.Equal(m0216.LastAccessedAt) {
		t.Errorf("m0216 access changed: %d %v → %d %v", m0216.AccessCount, m0216.LastAccessedAt, m.AccessCount, m.LastAccessedAt)
	}

	if _, err := recall.Recall(ctx, d.e, engine.Query{Text: "충주 시에 충주 사과가 맛있었지?"}); err != nil {
		t.Fatal(err)
	}
	if fileSum(t, d.path) == before {
		t.Error("a committed recall left the checksum unchanged: the test cannot see writes")
	}
}

// looseChungju asks about the Chungju trip without saying most of what the
// memories say (cue_score below engine.RecognitionCue for m0308, m0441 and
// m0111): a free-recall question, so forgetting shows in its recalls.
const looseChungju = "충주 시 다녀온 뒤 요즘 나눴던 얘기 기억나?"

// Between now and +90 days, the Chungju episodes of importance 0.4 are
// forgotten while the fact of the same importance stays and rises; given
// long enough for that fact to go too, it is listed after the episodes.
func TestCompareForgetsEpisodesBeforeFactsOfEqualImportance(t *testing.T) {
	d := openDemo(t)
	ctx := context.Background()
	q := engine.Query{Text: looseChungju}
	c, err := inspector.Compare(ctx, d.e, q, d.now, d.now.Add(90*day))
	if err != nil {
		t.Fatal(err)
	}
	a := survivorKeys(c.A)
	// m0111 is the fact of importance 0.4 the query reaches ("얘기"); the
	// request m0310 ("find me the order link") it used to reach is no
	// longer a memory (requests to the assistant are not stored).
	for _, k := range []string{"m0308", "m0441", "m0111"} {
		if !contains(a, k) {
			t.Fatalf("survivors at A %v lack %s", a, k)
		}
	}
	if got := keys(c.Forgotten); strings.Join(got, ",") != "m0308,m0441" {
		t.Errorf("forgotten by +90d = %v, want the two episodes m0308, m0441", got)
	}
	for _, ch := range c.Forgotten {
		if ch.Kind != engine.KindEpisode || ch.Importance != 0.4 || ch.RankB != 0 || !strings.Contains(ch.Reason, "forgotten") {
			t.Errorf("forgotten %s: %+v", ch.Key, ch)
		}
		if !ch.ForgetAt.After(c.AtA) || !ch.ForgetAt.Before(c.AtB) {
			t.Errorf("%s forget_at %v outside (A, B]", ch.Key, ch.ForgetAt)
		}
	}
	if !contains(keys(c.Rose), "m0111") {
		t.Errorf("the fact m0111 (importance 0.4) should survive and rise at +90d; rose %v held %v fell %v left %v",
			keys(c.Rose), keys(c.Held), keys(c.Fell), keys(c.Left))
	}
	for _, ch := range c.Rose {
		if ch.RankDelta <= 0 || ch.RankB >= ch.RankA || ch.FinalScoreB >= ch.FinalScoreA {
			t.Errorf("rose %s: rank %d → %d, final_score %v → %v", ch.Key, ch.RankA, ch.RankB, ch.FinalScoreA, ch.FinalScoreB)
		}
	}

	long, err := inspector.Compare(ctx, d.e, q, d.now, time.Date(2029, 6, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	got := keys(long.Forgotten)
	// m0111 (a fact of importance 0.4 the query reaches through "얘기"
	// alone) is at A since age became a bounded prior; a fact, it goes
	// after the episodes. The two-hop round may bring more facts (the
	// sister 지연 the trip memories name, m0026): they too go after the
	// episodes.
	if len(got) < 3 || strings.Join(got[:2], ",") != "m0308,m0441" || !contains(got[2:], "m0111") {
		t.Errorf("forgotten by 2029-06 = %v, want the episodes m0308, m0441, then the fact m0111", got)
	}
	for _, ch := range long.Forgotten[2:] {
		if ch.Kind != engine.KindFact {
			t.Errorf("forgotten after the episodes: %s is a %s, want facts only", ch.Key, ch.Kind)
		}
	}
	// A specific cue recognises the episodes at +90d: they are still
	// recalled, so Compare lists them as survivors, not as forgotten.
	specific, err := inspector.Compare(ctx, d.e, engine.Query{Text: "충주 사과"}, d.now, d.now.Add(90*day))
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(specific.Forgotten); len(got) != 0 {
		t.Errorf("충주 사과 at +90d: forgotten %v, want none (the cue recognises them)", got)
	}
	for _, k := range []string{"m0308", "m0441"} {
		m, _ := d.e.MemoryByKey(k)
		if !contains(survivorKeys(specific.B), k) || !recognisedIn(specific.B, m.ID) {
			t.Errorf("충주 사과 at +90d: %s not recognised; survivors %v, notes %q", k, survivorKeys(specific.B), specific.B.Stage("temporal").Notes["recognised"])
		}
		for _, ch := range append(append(append([]inspector.Change{}, specific.Held...), specific.Rose...), append(specific.Fell, specific.New...)...) {
			if ch.Key == k && (!ch.RecognisedB || ch.RecognisedA) {
				t.Errorf("충주 사과: %s recognised at A %v, at B %v; want only at B", k, ch.RecognisedA, ch.RecognisedB)
			}
		}
	}
	seenFact := map[float64]bool{}
	for _, ch := range long.Forgotten {
		if ch.Kind == engine.KindFact {
			seenFact[ch.Importance] = true
		} else if seenFact[ch.Importance] {
			t.Errorf("episode %s listed after a fact of importance %v", ch.Key, ch.Importance)
		}
	}
}

// The forecast's first entry is forgotten exactly when it says: a loose
// question about it the day before keeps it, the day after drops it as
// forgotten; its own text still recognises it then.
func TestForecastFirstEntryDropsOutAtItsForgetAt(t *testing.T) {
	d := openDemo(t)
	ctx := context.Background()
	fc := inspector.Forecast(d.e, d.now, 5)
	if len(fc) != 5 {
		t.Fatalf("forecast: %d entries", len(fc))
	}
	first := fc[0]
	if first.Key != "m0308" || first.Kind != engine.KindEpisode || first.Forgotten {
		t.Fatalf("first to be forgotten: %+v", first)
	}
	for i := 1; i < len(fc); i++ {
		if fc[i].ForgetAt.Before(fc[i-1].ForgetAt) {
			t.Errorf("forecast out of order at %d: %v before %v", i, fc[i].ForgetAt, fc[i-1].ForgetAt)
		}
	}
	m, _ := d.e.Memory(first.ID)
	if want := engine.ForgetAt(m, d.e.Config()); !first.ForgetAt.Equal(want) || first.InDays <= 0 {
		t.Errorf("forget_at %v (in %v days), engine says %v", first.ForgetAt, first.InDays, want)
	}
	if first.HalfLifeDays != 14*1.8 || first.Importance != 0.4 {
		t.Errorf("half-life %v days, importance %v; want 25.2 (14 × (1 + 2·0.4)) and 0.4", first.HalfLifeDays, first.Importance)
	}
	fate := func(text string, at time.Time) (survived bool, dropped engine.DropKind) {
		tr, err := inspector.Recall(ctx, d.e, engine.Query{Text: text, At: at})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range tr.Stage("temporal").Items {
			if it.ID == first.ID {
				dropped = it.DropKind
			}
		}
		return contains(survivorKeys(tr), first.Key), dropped
	}
	if ok, why := fate(looseChungju, first.ForgetAt.Add(-day)); !ok || why != "" {
		t.Errorf("the day before forget_at: survivor %v, temporal drop %q", ok, why)
	}
	if ok, why := fate(looseChungju, first.ForgetAt.Add(day)); ok || why != engine.DropForgotten {
		t.Errorf("the day after forget_at: survivor %v, temporal drop %q", ok, why)
	}
	if ok, why := fate(first.Text, first.ForgetAt.Add(day)); !ok || why != "" {
		t.Errorf("its own text the day after forget_at: survivor %v, temporal drop %q; want recognised", ok, why)
	}
	// Past its forget_at it leaves the forecast, and the next one leads.
	later := inspector.Forecast(d.e, first.ForgetAt.Add(time.Second), 1)
	if len(later) != 1 || later[0].ID == first.ID || later[0].ID != fc[1].ID {
		t.Errorf("forecast after the first is forgotten: %+v, want %s", later, fc[1].Key)
	}
}

// The per-memory forecast of the Memories detail.
func TestForecastOf(t *testing.T) {
	d := openDemo(t)
	m, _ := d.e.MemoryByKey("m0308")
	f, ok := inspector.ForecastOf(d.e, m.ID, d.now)
	if !ok || f.Key != "m0308" || f.Forgotten || f.Decay <= 0 || f.Decay >= 1 || math.Abs(f.Strength-f.Decay*0.4) > 1e-6 {
		t.Errorf("forecast of m0308: %+v", f)
	}
	if _, ok := inspector.ForecastOf(d.e, -1, d.now); ok {
		t.Error("forecast of an unknown id")
	}
}

// The forgotten Chungju episodes carry their kind into every reader: the
// comparison's changes, the drop counts, and a Left change's stage stays
// out of its reason's prose ("mmr: beyond …", never "mmr: mmr: …").
func TestDropKindsReachTheComparison(t *testing.T) {
	d := openDemo(t)
	ctx := context.Background()
	c, err := inspector.Compare(ctx, d.e, engine.Query{Text: looseChungju}, d.now, d.now.Add(90*day))
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range c.Forgotten {
		if ch.Stage != "temporal" || ch.DropKind != engine.DropForgotten || !strings.HasPrefix(ch.Reason, "temporal: forgotten: decay") {
			t.Errorf("forgotten %s: stage %q kind %q reason %q", ch.Key, ch.Stage, ch.DropKind, ch.Reason)
		}
	}
	if got := inspector.DropCounts(*c.B.Stage("temporal"))["forgotten"]; got < len(c.Forgotten) {
		t.Errorf("temporal at +90d counts %d forgotten, the comparison lists %d", got, len(c.Forgotten))
	}
	for _, set := range [][]inspector.Change{c.Left, c.New} {
		for _, ch := range set {
			if ch.DropKind == "" || strings.HasPrefix(ch.Reason, ch.Stage+": "+ch.Stage+":") {
				t.Errorf("%s: stage %q kind %q reason %q", ch.Key, ch.Stage, ch.DropKind, ch.Reason)
			}
			if (ch.DropKind == inspector.DropNotRetrieved) != (ch.Stage == "") {
				t.Errorf("%s: kind %q with stage %q", ch.Key, ch.DropKind, ch.Stage)
			}
		}
	}
	// With k = 1 a year on, the Chungju memories that were survivors leave
	// through the slots, not the clock: their stage is named once.
	k1, err := inspector.Compare(ctx, d.e, engine.Query{Text: "충주 사과", K: 1}, d.now, d.now.Add(2*day))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*engine.Trace{k1.A, k1.B} {
		for _, st := range tr.Stages {
			for _, it := range st.Items {
				if it.DropKind != "" && strings.HasPrefix(it.Dropped, st.Name+":") {
					t.Errorf("%s repeats its stage in the reason: %q", st.Name, it.Dropped)
				}
			}
		}
	}
}
