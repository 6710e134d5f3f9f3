// Package locomotest finds the LoCoMo data set (locomo10.json) for the
// tests of golden and internal/cli that read it. The data is not in the
// repository: it is in shared/data/ beside the checkout, so the tests find
// it at ../shared/data/locomo10.json from the module root.
package locomotest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Require returns when the LoCoMo data is at path. When it is absent the
// test skips loudly, saying what goes unchecked (checks), or, under CI=true,
// fails (Present).
func Require(tb testing.TB, path, checks string) {
	tb.Helper()
	if !Present(tb, path, checks) {
		tb.Skip("LoCoMo data absent:", path)
	}
}

// Present reports whether the LoCoMo data is at path, for a test that runs
// without it and skips only its LoCoMo part. When it is absent, Present
// logs what goes unchecked (checks), or, under CI=true, fails the test: CI
// must run the LoCoMo figures, as it must the PostgreSQL tests, or a
// regression of them would pass unseen. Another error reading path counts
// as present and is left to the loader, which reports it.
func Present(tb testing.TB, path, checks string) bool {
	tb.Helper()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return true
	}
	where := path
	if abs, err := filepath.Abs(path); err == nil {
		where = abs
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("LoCoMo data absent: %s (%s), and CI=true: CI must check %s, so it must run with the checkout beside shared/ (the data is shared/data/locomo10.json, outside the repository)", path, where, checks)
	}
	tb.Logf("SKIP (no LoCoMo data): %s is absent, so nothing checks %s; check the repository out beside shared/ (shared/data/locomo10.json) to run it", where, checks)
	return false
}
