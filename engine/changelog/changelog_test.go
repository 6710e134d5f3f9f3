package changelog

import (
	"slices"
	"testing"
)

func TestSince(t *testing.T) {
	var l Log
	if ids, ok := l.Since(0); !ok || len(ids) != 0 {
		t.Fatalf("empty log: %v %v", ids, ok)
	}
	l.Add(5, 1)
	l.Add(3, 2)
	l.Add(5, 3) // taken again
	if ids, ok := l.Since(1); !ok || !slices.Equal(ids, []int64{3, 5}) {
		t.Fatalf("since 1: %v %v, want [3 5] true", ids, ok)
	}
	if ids, ok := l.Since(3); !ok || len(ids) != 0 {
		t.Fatalf("since 3: %v %v, want none", ids, ok)
	}
	// Past Size the oldest changes are lost: Since below them is incomplete.
	for i := range Size {
		l.Add(int64(100+i), int64(10+i))
	}
	if _, ok := l.Since(2); ok {
		t.Fatal("since 2 after the ring wrapped: want incomplete")
	}
	if ids, ok := l.Since(int64(10 + Size - 3)); !ok || !slices.Equal(ids, []int64{100 + Size - 2, 100 + Size - 1}) {
		t.Fatalf("the last two: %v %v", ids, ok)
	}
	l.Invalidate()
	if _, ok := l.Since(int64(10 + Size)); ok {
		t.Fatal("after Invalidate: want incomplete")
	}
}
