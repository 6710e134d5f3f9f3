package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/outfile"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
	"memtrace/recall"
)

// The golden probe sets: `golden run` (per-probe results, a summary and a
// diff against a reviewed baseline) and `golden stress` (the same set over
// its fixture inflated with distractors).

// goldenRunJSON is `golden run --json`: the run, plus the diff when a
// baseline was given.
type goldenRunJSON struct {
	*golden.RunResult
	Diff      *golden.RunDiff `json:"diff,omitempty"`
	Regressed bool            `json:"regressed"`
}

func goldenRun(fs *flag.FlagSet) runFunc {
	baseline := fs.String("baseline", "", "compare with this run file `RUN.json` (a reviewed baseline)")
	save := fs.String("save", "", "write this run to `RUN.json` (e.g. a new baseline)")
	asJSON := fs.Bool("json", false, "print the run as JSON")
	failOnRegression := fs.Bool("fail-on-regression", false, "exit 1 on a regression against --baseline (without one: on any failing probe)")
	at := fs.String("at", "", "run at time `T` instead of the set's defaults.at: a date, RFC 3339, or an offset such as +1w from defaults.at (from the database clock when the set has none)")
	policyFile := fs.String("policy", "", "run under the policy in `FILE` (memtrace help policy) instead of the database's")
	return func(e *env, words []string) error {
		if len(words) != 1 {
			return usageError{"give one golden set file, e.g. testdata/golden/demo.yaml"}
		}
		cfg, err := policyFlag(*policyFile)
		if err != nil {
			return err
		}
		when, err := parseSetAt(*at)
		if err != nil {
			return err
		}
		set, err := loadSet(words[0])
		if err != nil {
			return err
		}
		var base *golden.RunResult
		if *baseline != "" {
			if base, err = golden.LoadRun(*baseline); err != nil {
				return engine.Errorf(engine.ENOTFOUND, "%v; save one with --save RUN.json", err)
			}
		}
		// A set with a fixture builds it fresh: in a temporary SQLite file,
		// or in a scratch space when --db is PostgreSQL.
		fixture, dropFixture, err := scratchDatabase(e, "fixture")
		if err != nil {
			return fmt.Errorf("golden run: %w", err)
		}
		defer dropFixture()
		eng, closeDB, err := goldenEngine(e, set, fixture, cfg)
		if err != nil {
			return err
		}
		defer closeDB()
		applySetAt(set, when, eng.Now())
		out, err := runAgainst(e.ctx, set, recall.Over(eng), runnerOf(eng), base)
		if err != nil {
			return err
		}
		if *save != "" {
			if err := out.Save(*save, outfile.Perm(e.dbPath)); err != nil {
				return err
			}
		}
		return report(e.stdout, out, reportOptions{json: *asJSON, saved: *save, baseline: *baseline, failOnRegression: *failOnRegression})
	}
}

// runnerOf is the runner of a set over eng: its clock, and its policy's k
// and budget for probes that name neither.
func runnerOf(eng *engine.Engine) golden.Runner {
	return golden.Runner{Now: eng.Now, Config: eng.Config()}
}

// runAgainst runs the set through rec with runner and diffs it with base
// (when given).
func runAgainst(ctx context.Context, set *golden.Set, rec golden.Recaller, runner golden.Runner, base *golden.RunResult) (goldenRunJSON, error) {
	res, err := runner.Run(ctx, set, rec, nil)
	if err != nil {
		return goldenRunJSON{}, err
	}
	out := goldenRunJSON{RunResult: res}
	if base != nil {
		out.Diff = golden.Diff(base, res)
		out.Regressed = out.Diff.Regressed()
	} else {
		out.Regressed = res.Summary.Failed > 0
	}
	return out, nil
}

type reportOptions struct {
	json             bool
	saved, baseline  string
	failOnRegression bool
}

// report prints a run (and its diff) and turns a regression into an error
// when asked to.
func report(w io.Writer, out goldenRunJSON, o reportOptions) error {
	res := out.RunResult
	if o.json {
		if err := writeJSONText(w, out); err != nil {
			return err
		}
	} else {
		printRun(w, res)
		if out.Diff != nil {
			fmt.Fprintln(w)
			fmt.Fprint(w, out.Diff.Text())
		}
		if o.saved != "" {
			fmt.Fprintf(w, "saved run: %s\n", o.saved)
		}
	}
	if o.failOnRegression && out.Regressed {
		if out.Diff != nil {
			return engine.Errorf(engine.EINVALID, "regression against %s: %s broke, %d missing; see the diff above, fix the pipeline or review and re-save the baseline",
				o.baseline, wording.Count(out.Diff.Count(golden.ChangeBroke), "probe"), out.Diff.Count(golden.ChangeMissing))
		}
		return engine.Errorf(engine.EINVALID, "%d of %s failed; see the failures above", res.Summary.Failed, wording.Count(res.Summary.Probes, "probe"))
	}
	return nil
}

// printRun is the human form of a run: one line a probe, its failures
// indented, then the summary.
func printRun(w io.Writer, r *golden.RunResult) {
	for _, p := range r.Probes {
		verdict := "PASS"
		if !p.Pass {
			verdict = "FAIL"
		}
		fmt.Fprintf(w, "%s  %s %s\n", verdict, safetext.PadRight(safetext.SanitizeLine(p.ID), 40), wording.Count(len(p.Survivors), "survivor"))
		for _, f := range p.Failures {
			fmt.Fprintf(w, "      ✗ %s\n", f)
		}
	}
	s := r.Summary
	fmt.Fprintf(w, "\n%s: %d/%d passed (%.1f%%), present recall %.3f, mean guaranteed %.2f, mean prompt %.0f chars",
		r.Set, s.Passed, s.Probes, 100*s.PassRate, s.PresentRecall, s.MeanGuaranteed, s.MeanPromptChars)
	if s.MeanStraySurvivors != nil {
		fmt.Fprintf(w, ", stray survivors %.2f per precision probe (%d in %s)", *s.MeanStraySurvivors, s.StraySurvivors, wording.Count(s.PrecisionProbes, "probe"))
	}
	fmt.Fprintln(w)
}

// loadSet loads a golden set, with errors that say what to do.
func loadSet(path string) (*golden.Set, error) {
	set, err := golden.Load(path)
	if err != nil {
		if errors.Is(err, iofs.ErrNotExist) {
			return nil, engine.Errorf(engine.ENOTFOUND, "%v; check the path of the golden set", err)
		}
		return nil, engine.Errorf(engine.EINVALID, "%v", err)
	}
	return set, nil
}

// parseSetAt reads --at of a golden command (nil: not given).
func parseSetAt(at string) (*engine.When, error) {
	if at == "" {
		return nil, nil
	}
	w, err := engine.ParseWhen(at)
	if err != nil {
		return nil, usageError{"--at: " + engine.ErrorMessage(err)}
	}
	return &w, nil
}

// applySetAt moves the set's defaults.at to when: an offset counts from
// defaults.at, or from now (the clock of the database the set runs
// against) when the set has none.
func applySetAt(set *golden.Set, when *engine.When, now time.Time) {
	if when == nil {
		return
	}
	set.Defaults.At = when.From(set.Defaults.Base(now))
	set.Defaults.AtOffset = 0
}

// goldenEngine opens the engine a set runs against: with a fixture, a
// fresh database at path built from it (capture pipeline, then the set's
// curation file); without one, the database of --db.
//
// It runs under the policy cfg (zero: the database's recorded policy,
// which a fresh fixture has none of): the fixture is captured under cfg's
// capture-time keys, and the engine recalls under its recall-time keys.
func goldenEngine(e *env, set *golden.Set, path string, cfg engine.Config) (*engine.Engine, func(), error) {
	if set.Fixture == "" {
		eng, _, closeDB, err := openEngine(e, true, engine.Options{Config: cfg})
		return eng, closeDB, err
	}
	if err := golden.BuildFixtureUnder(e.ctx, set, path, openStoreFile, cfg); err != nil {
		return nil, nil, err
	}
	eng, _, closeDB, err := openEngineAt(e.ctx, path, true, engine.Options{Config: cfg})
	return eng, closeDB, err
}

// buildFixture ingests the set's fixture through the capture pipeline into
// a new database at path, applies <set>.quarantine when it exists, and
// closes the database (golden.BuildFixture on a SQLite store).
func buildFixture(ctx context.Context, set *golden.Set, path string) error {
	return golden.BuildFixture(ctx, set, path, openStoreFile)
}

// openStoreFile is openStoreAt as a golden.StoreOpener: it creates the
// database when missing (a fixture's).
func openStoreFile(ctx context.Context, path string) (engine.Store, error) {
	db, _, err := openStoreAt(ctx, path, false)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// stressRun is one inflation factor of `golden stress --json`.
type stressRun struct {
	Inflate  int                `json:"inflate"`
	Memories int                `json:"memories"`
	Summary  golden.Summary     `json:"summary"`
	Degraded []golden.ProbeDiff `json:"degraded"`
	Diff     *golden.RunDiff    `json:"-"`
}

// stressJSON is `golden stress --json`.
type stressJSON struct {
	Set      string         `json:"set"`
	Base     golden.Summary `json:"base"`
	Memories int            `json:"memories"`
	ChitChat string         `json:"chitchat"`
	Runs     []stressRun    `json:"runs"`
}

func goldenStress(fs *flag.FlagSet) runFunc {
	inflate := fs.String("inflate", "10", "grow the fixture store `N,N…` times, e.g. 10 or 10,100")
	chat := fs.String("chitchat", "../shared/data/ko_chatbot.csv", "Korean chit-chat `CSV` (Q,A,label); generated text when absent")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	at := fs.String("at", "", "as for golden run: time `T`, a date, RFC 3339 or an offset from the set's defaults.at")
	return func(e *env, words []string) error {
		if len(words) != 1 {
			return usageError{"give one golden set file with a fixture, e.g. testdata/golden/demo.yaml"}
		}
		factors, err := benchInts(*inflate)
		if err != nil {
			return usageError{"--inflate: " + err.Error()}
		}
		when, err := parseSetAt(*at)
		if err != nil {
			return err
		}
		set, err := loadSet(words[0])
		if err != nil {
			return err
		}
		// The fixture databases keep the wall clock.
		applySetAt(set, when, time.Now())
		if set.Fixture == "" {
			return usageError{"golden stress needs a set with a fixture: it inflates the fixture's store"}
		}
		out := stressJSON{Set: set.Name, ChitChat: "generated"}
		var pool []string
		if lines, err := golden.LoadChitChat(*chat); err == nil {
			pool, out.ChitChat = lines, *chat
		} else if !errors.Is(err, iofs.ErrNotExist) {
			return err
		}
		tmp, err := os.MkdirTemp("", "memtrace-stress-")
		if err != nil {
			return fmt.Errorf("golden stress: temporary directory: %w", err)
		}
		defer os.RemoveAll(tmp)
		fixture := filepath.Join(tmp, "fixture.db")
		if err := buildFixture(e.ctx, set, fixture); err != nil {
			return err
		}
		base, baseMems, err := stressOnce(e.ctx, set, fixture, 0, nil)
		if err != nil {
			return err
		}
		out.Base, out.Memories = base.Summary, len(baseMems)
		for _, f := range factors {
			if f < 2 {
				return usageError{"--inflate: each factor must be at least 2"}
			}
			path := filepath.Join(tmp, fmt.Sprintf("inflate-%d.db", f))
			if err := copyFile(fixture, path); err != nil {
				return err
			}
			extra := golden.Distractors(baseMems, (f-1)*len(baseMems), golden.StressOptions{ChitChat: pool, Seed: uint64(f)})
			res, _, err := stressOnce(e.ctx, set, path, f, extra)
			if err != nil {
				return err
			}
			d := golden.Diff(base, res)
			run := stressRun{Inflate: f, Memories: len(baseMems) + len(extra), Summary: res.Summary, Diff: d, Degraded: []golden.ProbeDiff{}}
			for _, p := range d.Probes {
				if p.Change == golden.ChangeBroke || len(p.Left) > 0 {
					run.Degraded = append(run.Degraded, p)
				}
			}
			out.Runs = append(out.Runs, run)
		}
		if *asJSON {
			return writeJSONText(e.stdout, out)
		}
		w := e.stdout
		fmt.Fprintf(w, "%s: %d memories in the fixture, distractors: paraphrased near-duplicates + chit-chat (%s)\n", set.Name, out.Memories, out.ChitChat)
		fmt.Fprintf(w, "%-8s %9s %8s %9s %15s %12s\n", "inflate", "memories", "passed", "pass_rate", "present_recall", "mean_prompt")
		fmt.Fprintf(w, "%-8s %9d %8d %9.3f %15.3f %12.0f\n", "1×", out.Memories, out.Base.Passed, out.Base.PassRate, out.Base.PresentRecall, out.Base.MeanPromptChars)
		for _, r := range out.Runs {
			s := r.Summary
			fmt.Fprintf(w, "%-8s %9d %8d %9.3f %15.3f %12.0f\n", fmt.Sprintf("%d×", r.Inflate), r.Memories, s.Passed, s.PassRate, s.PresentRecall, s.MeanPromptChars)
		}
		for _, r := range out.Runs {
			fmt.Fprintf(w, "\n%d×: %s degraded (broke, or lost a survivor)\n", r.Inflate, wording.Count(len(r.Degraded), "probe"))
			for _, p := range r.Degraded {
				fmt.Fprintf(w, "  %s %s → %s, lost %s, %s entered\n", safetext.PadRight(safetext.SanitizeLine(p.ID), 40), passWordMain(p.WasPass), passWordMain(p.Pass), wording.Count(len(p.Left), "survivor"), wording.Count(len(p.Entered), "distractor"))
				for _, s := range p.Left {
					fmt.Fprintf(w, "      - %s %q\n", survivorName(s), clipRunes(s.Text, 60))
				}
			}
		}
		return nil
	}
}

// stressOnce opens the database at path, adds extra, runs the set and
// returns the run with every memory the store held before extra.
func stressOnce(ctx context.Context, set *golden.Set, path string, factor int, extra []*engine.Memory) (*golden.RunResult, []engine.Memory, error) {
	eng, _, closeDB, err := openEngineAt(ctx, path, true, engine.Options{})
	if err != nil {
		return nil, nil, err
	}
	defer closeDB()
	var mems []engine.Memory
	eng.EachMemory(func(m *engine.Memory) bool {
		mems = append(mems, *m)
		return true
	})
	if len(extra) > 0 {
		if err := golden.AddSynthetic(ctx, recall.Over(eng), extra); err != nil {
			return nil, nil, fmt.Errorf("golden stress ×%d: %w", factor, err)
		}
	}
	res, err := (&golden.Runner{Now: eng.Now}).Run(ctx, set, recall.Over(eng), nil)
	return res, mems, err
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("copy fixture: %w", err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return fmt.Errorf("copy fixture: %w", err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return fmt.Errorf("copy fixture: %w", err)
	}
	return dst.Close()
}

func passWordMain(p bool) string {
	if p {
		return "pass"
	}
	return "fail"
}

func survivorName(s golden.SurvivorRef) string {
	if s.Key != "" {
		return "key:" + s.Key
	}
	return "id:" + strconv.FormatInt(s.ID, 10)
}

func clipRunes(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
