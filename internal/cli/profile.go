package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// ProfileEnv names a file that, when set, receives a CPU profile of the
// whole command (`go tool pprof memtrace FILE`): how the one-shot commands
// (recall, mcp's start) are measured without a test harness around them.
const ProfileEnv = "MEMTRACE_CPUPROFILE"

// startProfile starts the CPU profile ProfileEnv asks for and returns what
// stops it; a profile that cannot start is reported and the command runs.
func startProfile(stderr io.Writer) func() {
	path := os.Getenv(ProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "memtrace: %s: %v\n", ProfileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
