package half

import (
	"math"
	"testing"
)

// Every half converts to its float32 and back to itself (NaNs stay NaN),
// and a float32 rounds to the nearer of its two neighbouring halves, ties
// to the even one.
func TestRoundTrip(t *testing.T) {
	for i := range 1 << 16 {
		h := uint16(i)
		f := ToFloat32(h)
		if f != f {
			if g := FromFloat32(f); ToFloat32(g) == ToFloat32(g) {
				t.Fatalf("NaN %#04x came back as %#04x", h, g)
			}
			continue
		}
		if g := FromFloat32(f); g != h && !(f == 0 && g&0x7fff == 0 && h&0x7fff == 0 && g == h) {
			t.Fatalf("%#04x → %v → %#04x", h, f, g)
		}
	}
	cases := []struct {
		f    float32
		want uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {65520, 0x7c00}, {1e9, 0x7c00},
		{float32(math.Inf(-1)), 0xfc00}, {5.960464477539063e-08, 0x0001}, {2.9e-08, 0x0000},
		{3.0e-08, 0x0001}, {1 + 1.0/2048, 0x3c00}, {1 + 3.0/2048, 0x3c02}, {0.1, 0x2e66},
		{-0.0, 0x0000}, {float32(math.Copysign(0, -1)), 0x8000},
	}
	for _, c := range cases {
		if got := FromFloat32(c.f); got != c.want {
			t.Errorf("FromFloat32(%v) = %#04x, want %#04x", c.f, got, c.want)
		}
	}
	// Every float32 between two halves rounds to the nearer one.
	for i := range 1 << 16 {
		h := uint16(i)
		if h&0x7c00 == 0x7c00 || h == 0x7bff || h == 0xfbff {
			continue
		}
		lo, hi := float64(ToFloat32(h)), float64(ToFloat32(h+1))
		if h&0x8000 != 0 && h&0x7fff == 0x7fff {
			continue
		}
		mid := float32(lo + (hi-lo)*0.3)
		if got := FromFloat32(mid); got != h && lo != hi {
			t.Fatalf("%v (between %v and %v) → %#04x, want %#04x", mid, lo, hi, got, h)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	v := []float32{0.5, -0.25, 0.1, 0, 1e-6}
	b := Encode(nil, v)
	if len(b) != 2*len(v) {
		t.Fatalf("%d bytes", len(b))
	}
	got := make([]float32, len(v))
	Decode(got, b)
	r := append([]float32(nil), v...)
	Round(r)
	for i := range v {
		if got[i] != r[i] || math.Abs(float64(got[i]-v[i])) > 1e-3*math.Abs(float64(v[i]))+6e-8 {
			t.Errorf("[%d] %v → %v (round %v)", i, v[i], got[i], r[i])
		}
	}
}
