package cli

import (
	"flag"
	"fmt"

	"memtrace/internal/version"
)

// cmdVersion runs `memtrace version [--json]` (and `memtrace --version`):
// the version, commit and build date of this binary, one line or JSON.
func cmdVersion(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print {version, commit, date, go, platform} as JSON")
	return func(e *env, pos []string) error {
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
}
