package policy

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

// leaves are the fields of a Config, those of its nested structs (Tuning)
// in their place.
func leaves(v reflect.Value) []reflect.Value {
	var out []reflect.Value
	for j := 0; j < v.NumField(); j++ {
		if f := v.Field(j); f.Kind() == reflect.Struct {
			out = append(out, leaves(f)...)
		} else {
			out = append(out, f)
		}
	}
	return out
}

// Every field of engine.Config and of its Tuning is one key of the schema:
// setting each key changes exactly one struct field, and no struct field
// is left out.
func TestEveryConfigFieldInSchema(t *testing.T) {
	n := len(leaves(reflect.ValueOf(engine.Config{})))
	if len(fields) != n {
		t.Fatalf("schema has %d keys, engine.Config %d fields (Tuning's included)", len(fields), n)
	}
	covered := map[int]string{}
	for i := range fields {
		f := &fields[i]
		d := engine.DefaultConfig()
		c := d
		f.set(&c, other(f))
		dv, cv := leaves(reflect.ValueOf(d)), leaves(reflect.ValueOf(c))
		changed := -1
		for j := 0; j < n; j++ {
			if !reflect.DeepEqual(dv[j].Interface(), cv[j].Interface()) {
				if changed >= 0 {
					t.Errorf("%s changes more than one field", f.Key)
				}
				changed = j
			}
		}
		if changed < 0 {
			t.Fatalf("%s changes no field", f.Key)
		}
		if prev, dup := covered[changed]; dup {
			t.Errorf("%s and %s set the same field", prev, f.Key)
		}
		covered[changed] = f.Key
	}
}

// other is a valid value of f that differs from its default.
func other(f *field) any {
	d := engine.DefaultConfig()
	switch f.Kind {
	case kFloat:
		v := d
		x := f.get(&v).(float64)
		if x+0.01 <= f.Max {
			return x + 0.01
		}
		return x - 0.01
	case kInt:
		v := d
		return f.get(&v).(int) + 1
	case kDuration:
		v := d
		return f.get(&v).(time.Duration) + time.Hour
	}
	for _, e := range f.Enum {
		if e != d.Detail {
			return e
		}
	}
	return ""
}

func TestRoundTrip(t *testing.T) {
	d := engine.DefaultConfig()
	got, err := Decode(Encode(d))
	if err != nil || got != d {
		t.Fatalf("defaults round trip: %v %+v", err, got)
	}
	c := d
	for i := range fields {
		fields[i].set(&c, other(&fields[i]))
	}
	got, err = Decode(Encode(c))
	if err != nil || got != c {
		t.Fatalf("changed round trip: %v\n%s", err, Encode(c))
	}
	if len(Diff(d, c)) != len(fields) || len(Diff(c, c)) != 0 {
		t.Fatalf("diff: %v", Diff(d, c))
	}
}

func TestDecodeStrict(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"recall:\n  k: 8\n  mmr_lamda: 0.5\n", `line 3: unknown key "recall.mmr_lamda"; valid keys: capture.detail`},
		{"recal:\n  k: 8\n", `line 1: unknown section "recal"`},
		{"forgetting:\n  half_life_episode: soon\n", `line 2: forgetting.half_life_episode: "soon" is not a duration`},
		{"forgetting:\n  threshold: 2\n", "line 2: forgetting.threshold: 2 is out of range [0.0001, 1]"},
		{"recall:\n  k: 8\n  k: 9\n", "line 3: recall.k is already set at line 2"},
		{"capture:\n  detail: maximal\n", `"maximal" is not one of high, medium, low`},
		{"recall:\n  k: [1, 2]\n", "takes one value"},
		{"- k\n", "expected sections"},
	} {
		_, err := Decode([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestDecodeUnits(t *testing.T) {
	// 한국어 주석도 YAML 주석일 뿐: comments in either language are ignored.
	c, err := Decode([]byte("# 에피소드 반감기를 줄인다\nforgetting:\n  half_life_episode: 1.5d # short\n  half_life_fact: 720h\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.HalfLifeEpisode != 36*time.Hour || c.HalfLifeFact != 30*24*time.Hour {
		t.Fatalf("durations: %v %v", c.HalfLifeEpisode, c.HalfLifeFact)
	}
	if c.K != engine.DefaultConfig().K {
		t.Fatalf("a key left out keeps its default: k=%d", c.K)
	}
	if FormatDuration(36*time.Hour) != "36h0m0s" || FormatDuration(14*24*time.Hour) != "14d" {
		t.Fatal("FormatDuration")
	}
}

// help policy prints every key on one line with its default and the
// closed form it enters (its Doc).
func TestHelpListsEveryKey(t *testing.T) {
	h := Help()
	d := engine.DefaultConfig()
	for i := range fields {
		f := &fields[i]
		_, name, _ := strings.Cut(f.Key, ".")
		found := false
		for _, line := range strings.Split(h, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), name+":") && strings.Contains(line, " "+f.format(f.get(&d))+" ") && strings.HasSuffix(line, f.Doc) {
				found = true
			}
		}
		if !found {
			t.Errorf("help policy has no line for %s with its default %s and %q", f.Key, f.format(f.get(&d)), f.Doc)
		}
	}
	for _, s := range []string{"capture", "recall", "14d", "w_lexical_hashed:", "0.7", "R, the horizon factor"} {
		if !strings.Contains(h, s) {
			t.Errorf("help policy lacks %q", s)
		}
	}
}
