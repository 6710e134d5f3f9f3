package ui

import (
	"time"

	"memtrace/golden"
)

// The Golden tab's async results, each delivered in a paneMsg envelope.
type (
	// goldenSetMsg is a set loaded (or not) with its conventional baseline.
	goldenSetMsg struct {
		Path string // "" with Missing: no default set in the working directory
		// Missing: the default set does not exist; the user types a path.
		Missing bool
		// Tried lists where the default set was looked for.
		Tried []string
		// Builtin: the set is the copy of the one built into the binary
		// (Deps.Sets), the working directory having none.
		Builtin bool
		Set     *golden.Set
		// Quarantine is the set's quarantine file, "" when it has none.
		Quarantine string
		Err        error
		BasePath   string
		Base       *golden.RunResult // nil: no baseline file (BaseErr says why when it was unreadable)
		BaseErr    error
	}
	// goldenBaselineMsg is a baseline file chosen with `b`.
	goldenBaselineMsg struct {
		Path string
		Run  *golden.RunResult
		Err  error
	}
	// goldenProgressMsg is one step of a run: Done of Total fixture
	// messages ingested (Fixture), or Done of Total probes recalled.
	goldenProgressMsg struct {
		Seq         int
		Fixture     bool
		Done, Total int
	}
	// goldenRunMsg ends a run: its result, or why it stopped.
	goldenRunMsg struct {
		Seq       int
		Run       *golden.RunResult
		Err       error
		Cancelled bool // esc (or the program ending) stopped the run
		Elapsed   time.Duration
		// Fx is the fixture database the run built, kept open for the
		// probes' traces (nil: the run used the open database).
		Fx *fixtureDB
		// RanOn names the database the run recalled from.
		RanOn string
	}
	// goldenSavedMsg is the run written as a baseline and read back.
	goldenSavedMsg struct {
		Path string
		Run  *golden.RunResult
		Err  error
	}
)
