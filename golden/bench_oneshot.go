package golden

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// The one-shot benchmark (`bench open --one-shot`): each command run as a
// new process on an existing database, as a user or an agent's tool call
// runs it — the cost the open benchmark's warm process does not show.

// OneShotDB runs one command on its database as a new process (the CLI:
// its own binary, started for that one command) and says what it cost.
type OneShotDB interface {
	OneShot(ctx context.Context, args []string) (OneShot, error)
}

// OneShot is one command run as a new process: its wall time, its CPU
// time (user and system) and its peak resident set. For mcp the wall time
// is until the server answered its first request (initialize); the CPU
// and the peak are until it exited.
type OneShot struct {
	Command  string  `json:"command"`
	WallMS   float64 `json:"wall_ms"`
	CPUMS    float64 `json:"cpu_ms"`
	MaxRSSMB float64 `json:"max_rss_mb"`
}

// OneShotRuns is how many times each command is run; the run of median
// wall time is reported.
const OneShotRuns = 3

// OneShotResult is the `bench open --one-shot --json` document. A child's
// peak resident set is never below its parent's at the time it was
// started (Linux keeps the high-water mark across the vfork and exec that
// start it), so the parent's own peak, FloorMB, is said beside them.
type OneShotResult struct {
	Memories int       `json:"memories"`
	FloorMB  float64   `json:"floor_mb"`
	Commands []OneShot `json:"commands"`
}

// RunOneShots runs each command OneShotRuns times on db, which holds n
// memories: a page of list, one memory's show, a traced recall (its query
// drawn from the synthetic vocabulary) and mcp until it answers. floor is
// the caller's peak resident set in MB.
func RunOneShots(ctx context.Context, db OneShotDB, n int, floor func() float64) (*OneShotResult, error) {
	query := SyntheticQuery(rand.New(rand.NewPCG(33, 1)))
	cmds := [][]string{{"list", "--limit", "5"}, {"show", "1"}, {"recall", query, "--json"}, {"mcp"}}
	res := &OneShotResult{Memories: n, Commands: make([]OneShot, 0, len(cmds))}
	for _, args := range cmds {
		runs := make([]OneShot, 0, OneShotRuns)
		for range OneShotRuns {
			r, err := db.OneShot(ctx, args)
			if err != nil {
				return nil, fmt.Errorf("one-shot %s: %w", args[0], err)
			}
			runs = append(runs, r)
		}
		sort.Slice(runs, func(i, j int) bool { return runs[i].WallMS < runs[j].WallMS })
		res.Commands = append(res.Commands, runs[len(runs)/2])
	}
	res.FloorMB = round4(floor())
	return res, nil
}

// Text renders the commands as a table.
func (r *OneShotResult) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "one-shot commands on %d memories, a new process each, median of %d (peak RSS floor: this process's %.1f MB)\n",
		r.Memories, OneShotRuns, r.FloorMB)
	fmt.Fprintf(&b, "%-40s %9s %9s %11s\n", "command", "wall_ms", "cpu_ms", "max_rss_mb")
	for _, c := range r.Commands {
		fmt.Fprintf(&b, "%-40.40s %9.1f %9.1f %11.1f\n", c.Command, c.WallMS, c.CPUMS, c.MaxRSSMB)
	}
	return b.String()
}
