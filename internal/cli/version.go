package cli

import (
	"flag"
	"fmt"
	"io"

	"memtrace/internal/version"
)

// cmdVersion runs `memtrace version [--json]` (and `memtrace --version`):
// the version, commit and build date of this binary, one line or JSON.
func cmdVersion(e *env, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print {version, commit, date, go, platform} as JSON")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return usageError{err.Error()}
	}
	if len(pos) != 0 {
		return usageError{"takes no arguments"}
	}
	in := version.Get()
	if *asJSON {
		return writeJSON(e.stdout, in)
	}
	fmt.Fprintln(e.stdout, in.Long())
	return nil
}
