package cli

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the package's tests from the module root, where the paths
// the commands document (testdata/…, ../shared/data/…) are relative to, and
// loads the demo conversation that main embeds into the binary.
func TestMain(m *testing.M) {
	if err := os.Chdir("../.."); err != nil {
		fmt.Fprintln(os.Stderr, "cli tests: cd to the module root:", err)
		os.Exit(1)
	}
	b, err := os.ReadFile("testdata/demo.jsonl")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cli tests: read the demo conversation:", err)
		os.Exit(1)
	}
	DemoConversation = b
	os.Exit(m.Run())
}
