package cli

import (
	"os"
	"testing"

	"memtrace/store"
)

func TestZZFill(t *testing.T) {
	dsn := store.SpaceDSN(os.Getenv("MEMTRACE_TEST_PG"), "probe10kb")
	if err := fillSpace(t.Context(), dsn, 10000, 1); err != nil {
		t.Fatal(err)
	}
}
