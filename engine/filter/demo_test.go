package filter

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

type demoMsg struct {
	ID, Role, Text string
}

type demoLabels struct {
	Noise       []string          `json:"noise"`
	NoiseReason map[string]string `json:"noise_reason"`
	MustKeep    []string          `json:"must_keep"`
	NoiseInfo   []string          `json:"noise_with_info"`
}

func loadDemo(t *testing.T) (map[string]demoMsg, demoLabels) {
	t.Helper()
	f, err := os.Open("../../testdata/demo.jsonl")
	if err != nil {
		t.Skipf("demo data absent: %v", err)
	}
	defer f.Close()
	msgs := map[string]demoMsg{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m demoMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		msgs[m.ID] = m
	}
	b, err := os.ReadFile("../../testdata/demo_labels.json")
	if err != nil {
		t.Fatal(err)
	}
	var l demoLabels
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return msgs, l
}

// TestDemoNoise: every labelled noise message of the demo conversation is
// dropped by L1 with a named reason, and — independently — by L2 when L1 is
// bypassed; no message that must be kept is dropped by either layer.
func TestDemoNoise(t *testing.T) {
	msgs, l := loadDemo(t)
	f := New()
	for _, id := range l.Noise {
		m := msgs[id]
		m1, ok1 := f.L1(m.Text)
		if !ok1 || m1.Name == "" {
			t.Errorf("L1 kept noise %s (%s): %q", id, l.NoiseReason[id], m.Text)
		}
		if _, ok2 := f.L2(m.Text); !ok2 {
			t.Errorf("L2 (L1 bypassed) kept noise %s (%s): %q", id, l.NoiseReason[id], m.Text)
		}
	}
	for _, id := range append(l.MustKeep, l.NoiseInfo...) {
		m := msgs[id]
		if r, ok := f.Noise(m.Text); ok {
			t.Errorf("dropped must-keep %s by %s/%s: %q", id, r.Layer, r.Name, m.Text)
		}
	}
}
