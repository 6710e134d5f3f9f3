// Package half converts between float32 and IEEE 754 binary16 (half
// precision: 1 sign bit, 5 exponent bits, 10 fraction bits), the form a
// dense embedding's vector is stored in: half the bytes of float32, and on
// unit vectors of 384–1024 coordinates a cosine within about 1e-4 of the
// float32 one (measured in half_test.go and engine/index's faithfulness
// test). Conversion rounds to nearest, ties to even; values beyond the
// half range become ±Inf, NaN stays NaN.
package half

import (
	"math"
	"sync"
)

// FromFloat32 is f rounded to the nearest half.
func FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	frac := b & 0x7fffff
	switch {
	case exp == 0xff: // Inf or NaN
		if frac != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127+15 >= 0x1f: // overflow
		return sign | 0x7c00
	case exp-127+15 <= 0: // subnormal half or zero
		e := exp - 127 + 15
		if e < -10 {
			return sign
		}
		m := frac | 0x800000 // the implicit bit
		shift := uint32(14 - e)
		h := m >> shift
		rem := m & (1<<shift - 1)
		halfway := uint32(1) << (shift - 1)
		if rem > halfway || (rem == halfway && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp-127+15)<<10 | frac>>13
	rem := frac & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, up to Inf: still correct
	}
	return sign | uint16(h)
}

// ToFloat32 is the float32 of half h (exact: every half is a float32).
func ToFloat32(h uint16) float32 { return table()[h] }

// table holds every half's float32 (256 KB): a lookup is cheaper than the
// bit arithmetic in the loops that decode whole vectors. Built on first
// use, so a process that never meets a half (the hashed embedder's) does
// not carry it.
var table = sync.OnceValue(func() *[1 << 16]float32 {
	t := new([1 << 16]float32)
	for i := range t {
		t[i] = decode(uint16(i))
	}
	return t
})

func decode(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	case exp == 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		// subnormal: frac·2^-24
		f := float32(frac) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

// Encode appends the halves of v to dst, little-endian, two bytes each.
func Encode(dst []byte, v []float32) []byte {
	for _, f := range v {
		h := FromFloat32(f)
		dst = append(dst, byte(h), byte(h>>8))
	}
	return dst
}

// Decode writes the float32 of the little-endian halves in b (two bytes
// each) into dst, which must hold len(b)/2 floats.
func Decode(dst []float32, b []byte) {
	dst = dst[:len(b)/2]
	t := table()
	for i := range dst {
		dst[i] = t[uint16(b[2*i])|uint16(b[2*i+1])<<8]
	}
}

// Round replaces every value of v by its nearest half: what a vector is
// once stored and read back.
func Round(v []float32) {
	for i, f := range v {
		v[i] = ToFloat32(FromFloat32(f))
	}
}

// Exact reports whether every value of v is a half exactly (Round would
// change no bit of it).
func Exact(v []float32) bool {
	t := table()
	for _, x := range v {
		if math.Float32bits(t[FromFloat32(x)]) != math.Float32bits(x) {
			return false
		}
	}
	return true
}

// Dense reports whether at most a quarter of v's values are zero, as in a
// model's embedding (the hashed embedder's vectors are mostly zeros).
func Dense(v []float32) bool {
	zero := 0
	for _, x := range v {
		if x == 0 {
			zero++
		}
	}
	return len(v) > 0 && 4*zero <= len(v)
}

// Keeps reports whether v is stored as halves: dense and exactly halves,
// so that storing it loses nothing.
func Keeps(v []float32) bool { return Dense(v) && Exact(v) }
