package version

import "testing"

func TestGetPrefersLinkerValues(t *testing.T) {
	old := [3]string{Version, Commit, Date}
	t.Cleanup(func() { Version, Commit, Date = old[0], old[1], old[2] })
	Version, Commit, Date = "v1.2.3", "0123456789abcdef0123", "2026-12-01T00:00:00Z"
	in := Get()
	if in.Version != "v1.2.3" || in.Commit != "0123456789abcdef0123" || in.Dirty {
		t.Fatalf("Get() = %+v", in)
	}
	if got, want := in.Long(), "memtrace v1.2.3 (commit 0123456789ab, built 2026-12-01T00:00:00Z)"; got != want {
		t.Fatalf("Long() = %q, want %q", got, want)
	}
}

func TestGetWithoutLinkerValuesIsNeverEmpty(t *testing.T) {
	old := [3]string{Version, Commit, Date}
	t.Cleanup(func() { Version, Commit, Date = old[0], old[1], old[2] })
	Version, Commit, Date = "", "", ""
	if v := String(); v == "" {
		t.Fatal("String() is empty")
	}
}
