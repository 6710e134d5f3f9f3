// Package version says which memtrace this is. Releases set Version, Commit
// and Date with -ldflags "-X memtrace/internal/version.Version=…"; a build
// from a clone falls back to what the Go toolchain recorded in the binary
// (the module version, the VCS revision and time), so every binary can say
// where it came from.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by -ldflags -X in release builds; empty otherwise.
var (
	Version string
	Commit  string
	Date    string
)

// Info is the version of this binary, as far as it is known.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Date    string `json:"date,omitempty"`
	Dirty   bool   `json:"dirty,omitempty"`
	// Go and Platform are the toolchain and GOOS/GOARCH the binary was
	// built with ("go1.26.7", "linux/arm64").
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Get returns the ldflags values where set, else the build information the
// toolchain recorded, else "dev".
func Get() Info {
	in := Info{Version: Version, Commit: Commit, Date: Date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if in.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			in.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if in.Commit == "" {
					in.Commit = s.Value
				}
			case "vcs.time":
				if in.Date == "" {
					in.Date = s.Value
				}
			case "vcs.modified":
				in.Dirty = in.Dirty || (s.Value == "true" && Commit == "")
			}
		}
	}
	if in.Version == "" {
		in.Version = "dev"
	}
	return in
}

// String is the version alone ("v0.3.0", or "dev" for a build from a clone
// without a tag), for protocol fields such as MCP's serverInfo.version and
// the OTLP resource.
func String() string { return Get().Version }

// Long is the one line `memtrace --version` prints.
func (in Info) Long() string {
	s := "memtrace " + in.Version
	if in.Commit != "" {
		c := in.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += fmt.Sprintf(" (commit %s", c)
		if in.Dirty {
			s += ", modified"
		}
		if in.Date != "" {
			s += ", built " + in.Date
		}
		s += ")"
	}
	return s
}
