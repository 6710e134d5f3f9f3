package tuning

import (
	"reflect"
	"testing"
)

// fields pairs every field of Tuning, each once, so WithDefaults fills
// them all; Default's are the documented constants, none zero.
func TestFieldsCoverTuning(t *testing.T) {
	var a, d Tuning
	ps := a.fields(&d)
	if n := reflect.TypeOf(a).NumField(); len(ps) != n {
		t.Fatalf("fields pairs %d of Tuning's %d fields", len(ps), n)
	}
	seen := map[*float64]bool{}
	for _, p := range ps {
		if seen[p[0]] {
			t.Fatal("a field paired twice")
		}
		seen[p[0]] = true
	}
	def := Default()
	if (Tuning{}).WithDefaults() != def {
		t.Fatal("the zero tuning does not read as the defaults")
	}
	v := reflect.ValueOf(def)
	for i := range v.NumField() {
		if v.Field(i).Float() == 0 {
			t.Errorf("%s defaults to zero, which reads as unset", v.Type().Field(i).Name)
		}
	}
	half := Tuning{MinIDFShare: 0.3}.WithDefaults()
	if half.MinIDFShare != 0.3 || half.TwoHopWeight != TwoHopWeight {
		t.Fatalf("a set field is kept, the others default: %+v", half)
	}
}
