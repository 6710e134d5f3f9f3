package store

import (
	"bytes"
	"math"
	"reflect"
	"testing"
	"time"
)

// The stored vector format is little-endian float32 whatever the machine:
// the bytes are checked against a hand-encoded vector.
func TestEmbeddingEncoding(t *testing.T) {
	v := []float32{1, -2.5, float32(math.Inf(1)), 3e-7}
	b := encodeEmbedding(v)
	want := []byte{0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc0, 0, 0, 0x80, 0x7f}
	if !reflect.DeepEqual(b[:12], want) || len(b) != 16 {
		t.Fatalf("encoded % x, want % x…", b, want)
	}
	for _, owned := range []bool{false, true} {
		in := bytes.Clone(b)
		got, err := decodeEmbedding(in, owned)
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Fatalf("decoded %v (%v), want %v", got, err, v)
		}
		// A vector decoded from bytes it does not own must not share them.
		in[0] ^= 0xff
		if changed := got[0] != v[0]; changed != (owned && nativeLittleEndian()) {
			t.Fatalf("owned=%v: the vector shares the blob's memory: %v", owned, changed)
		}
		// Nor can an append to the vector write past its end.
		if cap(got) != len(got) {
			t.Fatalf("owned=%v: vector capacity %d > length %d", owned, cap(got), len(got))
		}
	}
	for _, owned := range []bool{false, true} {
		if got, err := decodeEmbedding(nil, owned); got != nil || err != nil {
			t.Fatalf("nil blob decoded to %v, %v", got, err)
		}
		if _, err := decodeEmbedding([]byte{1, 2, 3}, owned); err == nil {
			t.Fatal("a 3-byte blob decoded without error")
		}
	}
}

func TestParseTime(t *testing.T) {
	for _, s := range []string{"2026-02-31T00:00:00.000000000Z", "2026-13-01T00:00:00.000000000Z", "garbage"} {
		if _, err := parseTime(s); err == nil {
			t.Errorf("parseTime(%q) accepted an invalid time", s)
		}
	}
	got, err := parseTime("2026-06-01T09:00:00.123456789Z")
	if err != nil || got.Nanosecond() != 123456789 || got.Day() != 1 || got.Location().String() != "UTC" {
		t.Fatalf("parseTime: %v %v", got, err)
	}
	if z, err := parseTime(formatTime(z0())); err != nil || !z.IsZero() {
		t.Fatalf("zero time round trip: %v %v", z, err)
	}
}

func z0() (t time.Time) { return }
