package cli

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/safetext"
)

// forecastOutput is `memtrace forecast --json`.
type forecastOutput struct {
	At        time.Time                 `json:"at"`
	Threshold float64                   `json:"forget_threshold"`
	Forecast  []inspector.ForecastEntry `json:"forecast"`
	Memory    *inspector.ForecastEntry  `json:"memory,omitempty"`
	Steps     []forecastStep            `json:"steps,omitempty"`
}

// forecastStep is one memory's state at one of the TUI's time steps.
type forecastStep struct {
	Offset    string    `json:"offset"`
	At        time.Time `json:"at"`
	Decay     float64   `json:"decay"`
	Strength  float64   `json:"strength"`
	Forgotten bool      `json:"forgotten"`
	// Unrecognisable: past the recognition horizon at this step.
	Unrecognisable bool `json:"unrecognisable"`
}

// cmdForecast runs `memtrace forecast [ID|key:K] [--at T] [--n 20]`: the
// next memories to be forgotten after T, or one memory's forecast.
func cmdForecast(fs *flag.FlagSet) runFunc {
	at := fs.String("at", "now", "forecast from time `T`: now, +30d, -2h, a date or RFC 3339 (offsets from the database clock)")
	n := fs.Int("n", 20, "how many memories to list (0: all)")
	asJSON := fs.Bool("json", false, "print JSON (see docs/inspector.md)")
	return func(e *env, words []string) error {
		if len(words) > 1 {
			return usageError{"want at most one memory: ID or key:K"}
		}
		if *n < 0 {
			return usageError{"--n must be 0 or more"}
		}
		if len(words) == 1 && givenFlag(fs, "n") != "" {
			return usageError{"--n is how many memories the list shows; one memory's forecast (" + words[0] + ") takes no --n: leave out the memory for the list"}
		}
		eng, closeStore, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeStore()
		when, err := inspector.At(eng, *at)
		if err != nil {
			return usageError{"--at: " + engine.ErrorMessage(err)}
		}
		out := forecastOutput{At: when, Threshold: eng.Config().ForgetThreshold, Forecast: []inspector.ForecastEntry{}}
		if len(words) == 1 {
			id, err := forecastMemoryID(eng, words[0])
			if err != nil {
				return err
			}
			f, _ := inspector.ForecastOf(eng, id, when)
			out.Memory = &f
			// The steps are the Trace tab's time override steps.
			for _, st := range engine.TimeSteps() {
				t := when.Add(st.Offset()).UTC()
				s, _ := inspector.ForecastOf(eng, id, t)
				out.Steps = append(out.Steps, forecastStep{Offset: st.Label, At: t, Decay: s.Decay, Strength: s.Strength, Forgotten: s.Forgotten, Unrecognisable: s.Unrecognisable})
			}
		} else {
			out.Forecast = append(out.Forecast, inspector.Forecast(eng, when, *n)...)
		}
		if *asJSON {
			return writeJSONText(e.stdout, out)
		}
		if out.Memory != nil {
			printForecastMemory(e.stdout, out)
			return nil
		}
		printForecast(e.stdout, out)
		return nil
	}
}

// forecastMemoryID resolves "ID" or "key:K" among the engine's memories.
func forecastMemoryID(eng *engine.Engine, arg string) (int64, error) {
	if k, ok := strings.CutPrefix(arg, "key:"); ok {
		if m, found := eng.MemoryByKey(k); found {
			return m.ID, nil
		}
	} else {
		id, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			return 0, usageError{fmt.Sprintf("%q is neither a memory id nor key:K", arg)}
		}
		if _, found := eng.Memory(id); found {
			return id, nil
		}
	}
	return 0, engine.Errorf(engine.ENOTFOUND, "no memory %s; find one with `memtrace list --text WORD`", arg)
}

func printForecast(w io.Writer, out forecastOutput) {
	fmt.Fprintf(w, "forgetting forecast from %s (forgotten when decay × importance < %.3f)\n\n",
		out.At.Format(time.RFC3339), out.Threshold)
	if len(out.Forecast) == 0 {
		fmt.Fprintln(w, "(nothing left to forget: no active memory is remembered at this time)")
		return
	}
	fmt.Fprintf(w, "%-17s %9s %-10s %6s  %-7s %s %5s %9s %6s  %s\n", "forget_at", "in", "unrecog.", "id", "kind", safetext.PadRight("type", 12),
		"imp", "half-life", "decay", "text")
	for _, f := range out.Forecast {
		fmt.Fprintf(w, "%-17s %8.1fd %-10s %6d  %-7s %s %5.2f %8.1fd %6.3f  %s\n", f.ForgetAt.Format("2006-01-02 15:04"), f.InDays,
			f.UnrecognisableAt.Format("2006-01-02"), f.ID,
			f.Kind, safetext.PadRight(safetext.Truncate(safetext.SanitizeLine(f.Type), 12), 12), f.Importance, f.HalfLifeDays,
			f.Decay, safetext.Truncate(safetext.SanitizeLine(f.Text), 48))
	}
}

func printForecastMemory(w io.Writer, out forecastOutput) {
	f := out.Memory
	fmt.Fprintf(w, "memory     #%d %s  %s %s  %s\n", f.ID, safetext.SanitizeLine(f.Key), f.Kind, safetext.SanitizeLine(f.Type), f.Status)
	fmt.Fprintf(w, "text       %s\n", safetext.Truncate(safetext.SanitizeLine(f.Text), 72))
	fmt.Fprintf(w, "importance %.2f   accesses %d   half-life %.1f days\n", f.Importance, f.AccessCount, f.HalfLifeDays)
	state := "remembered"
	switch {
	case f.Unrecognisable:
		state = "unrecognisable (no cue finds it)"
	case f.Forgotten:
		state = "forgotten in free recall (a specific cue still recognises it)"
	}
	fmt.Fprintf(w, "at %s   decay %.3f   strength %.3f (threshold %.3f)   %s\n", out.At.Format(time.RFC3339), f.Decay, f.Strength, out.Threshold, state)
	fmt.Fprintf(w, "drops out of free recall on %s (%+.1f days), unrecognisable after %s (%+.1f days)\n\n",
		f.ForgetAt.Format("2006-01-02"), f.InDays, f.UnrecognisableAt.Format("2006-01-02"), f.UnrecognisableInDays)
	fmt.Fprintf(w, "forget_at  %s   unrecognisable_at  %s\n\n", f.ForgetAt.Format(time.RFC3339), f.UnrecognisableAt.Format(time.RFC3339))
	for _, s := range out.Steps {
		line := fmt.Sprintf("  %-6s %s  decay %.3f  strength %.3f", s.Offset, s.At.Format("2006-01-02"), s.Decay, s.Strength)
		switch {
		case s.Unrecognisable:
			line += "  unrecognisable"
		case s.Forgotten:
			line += "  forgotten (recognisable)"
		}
		fmt.Fprintln(w, line)
	}
}
