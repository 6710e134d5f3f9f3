package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"memtrace/engine"
	"memtrace/engine/lexfile"
	"memtrace/golden"
	"memtrace/policy"
	"memtrace/recall"
	"memtrace/store"
	"memtrace/store/vecfile"
)

// The benchmarks: `bench locomo` (retrieval quality on the LoCoMo
// conversations), `bench recall` (recall latency against the brute-force
// scan floor as the store grows) and `bench open` (opening a database
// against reading its rows). They build their own temporary databases.

func benchLoCoMo(fs *flag.FlagSet) runFunc {
	ksFlag := fs.String("k", "5,10,25,50", "recall cut-offs `K,K…`, comma-separated")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	limit := fs.Int("limit-conversations", 0, "only the first N conversations (0: all)")
	budget := fs.Int("budget", 0, "character budget of each recall (0: the engine's default)")
	kind := enumString(fs, "kind", "episode", "`KIND` of the turn memories: episode or fact", string(engine.KindEpisode), string(engine.KindFact))
	importance := fs.Float64("importance", 0.5, "importance of the turn memories, 0..1")
	policyFile := fs.String("policy", "", "recall under the policy `FILE` (memtrace help policy) instead of the defaults")
	return func(e *env, files []string) error {
		if len(files) != 1 {
			return usageError{"give one LoCoMo file, e.g. ../shared/data/locomo10.json"}
		}
		ks, err := benchInts(*ksFlag)
		if err != nil {
			return usageError{"--k: " + err.Error()}
		}
		if *limit < 0 || *budget < 0 {
			return usageError{"--limit-conversations and --budget must not be negative"}
		}
		l, err := golden.LoadLoCoMo(files[0])
		if err != nil {
			return engine.Errorf(engine.ENOTFOUND, "%v; pass the path of locomo10.json", err)
		}
		tmp, err := os.MkdirTemp("", "memtrace-bench-")
		if err != nil {
			return fmt.Errorf("bench locomo: temporary directory: %w", err)
		}
		defer os.RemoveAll(tmp)
		emb, err := benchEmbedder(e, "bench locomo")
		if err != nil {
			return err
		}
		cfg, err := policyFlag(*policyFile)
		if err != nil {
			return err
		}
		factory := tempEngines(tmp, emb, cfg)
		if store.IsDSN(e.dbPath) {
			factory = scratchEngines(e, emb, cfg) // each conversation in a scratch space of --db's server
		}
		if *kind != string(engine.KindEpisode) && *kind != string(engine.KindFact) {
			return usageError{"--kind must be episode or fact"}
		}
		if *importance <= 0 || *importance > 1 {
			return usageError{"--importance must be in (0, 1]"}
		}
		opts := golden.LoCoMoOptions{Ks: ks, Conversations: *limit, Budget: *budget, Kind: engine.Kind(*kind), Importance: *importance}
		if !*asJSON {
			opts.Progress = func(done, total int, id string) {
				fmt.Fprintf(e.stderr, "\rbench locomo: %d/%d conversations (%s)   ", done, total, id)
				if done == total {
					fmt.Fprintln(e.stderr)
				}
			}
		}
		res, err := golden.RunLoCoMo(e.ctx, l, factory, opts)
		if err != nil {
			return err
		}
		if *policyFile != "" {
			res.Policy = &golden.BenchPolicy{File: *policyFile, Changes: policy.Diff(engine.DefaultConfig(), cfg)}
		}
		return printBench(e, *asJSON, res)
	}
}

func benchRecall(fs *flag.FlagSet) runFunc {
	nsFlag := fs.String("n", "10000,100000", "store sizes `N,N…`, comma-separated")
	queries := fs.Int("queries", 200, "traced recalls per store size")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	dense := fs.Int("dense", 0, "benchmark `DIM`-dimensional dense vectors of a deterministic synthetic embedder (e.g. 768) instead of the hashed embedder")
	return func(e *env, args []string) error {
		if *dense < 0 || *dense > maxDenseDim {
			return usageError{fmt.Sprintf("--dense must be a dimension from 1 to %d (e.g. 768)", maxDenseDim)}
		}
		if *dense > 0 && e.embedder != "" {
			return usageError{"--dense and --embedder each choose the embedder: give one"}
		}
		ns, tmp, err := sizedBench(fs.Name(), args, nsFlag, "queries", queries)
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		var emb engine.Embedder = golden.NewDenseEmbedder(*dense, 1)
		if *dense == 0 {
			if emb, err = benchEmbedder(e, "bench recall"); err != nil {
				return err
			}
		}
		opts := golden.RecallBenchOptions{Sizes: ns, Queries: *queries, RSS: residentMB}
		if !*asJSON {
			opts.Progress = func(stage string, n int) { fmt.Fprintf(e.stderr, "bench recall: n=%d: %s\n", n, stage) }
		}
		res, err := golden.RunRecallBench(e.ctx, tempEngines(tmp, emb, engine.Config{}), opts)
		if err != nil {
			return err
		}
		res.Embedder = emb.Name()
		if !*asJSON {
			fmt.Fprintf(e.stdout, "embedder: %s\n", emb.Name())
		}
		return printBench(e, *asJSON, res)
	}
}

func benchOpen(fs *flag.FlagSet) runFunc {
	nsFlag := fs.String("n", "10000,100000", "store sizes `N,N…`, comma-separated")
	opens := fs.Int("opens", 5, "opens per store size")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	keep := fs.String("keep", "", "write the databases into `DIR` and keep them (open-N.db)")
	oneShot := fs.Bool("one-shot", false, "instead: run list, show, recall and mcp as new processes of this binary on the database at --db (e.g. one --keep wrote): wall, CPU, peak RSS")
	binary := fs.String("binary", "", "with --one-shot: run the memtrace binary at `PATH` (another build, for a reference in the same run) instead of this one")
	return func(e *env, args []string) error {
		if *oneShot {
			if f := givenFlag(fs, "n", "opens", "keep"); f != "" {
				return usageError{"--one-shot times the database --db names; " + f + " is for the synthetic databases of a bench open without it: leave " + f + " out"}
			}
			return benchOneShot(e, args, *binary, *asJSON)
		}
		if *binary != "" {
			return usageError{"--binary goes with --one-shot (the build whose processes are timed); add --one-shot --db FILE, or leave --binary out"}
		}
		ns, tmp, err := sizedBench(fs.Name(), args, nsFlag, "opens", opens)
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir := tmp
		if *keep != "" {
			if err := os.MkdirAll(*keep, 0o755); err != nil {
				return engine.Errorf(engine.EINVALID, "bench open: --keep %s: %v", *keep, err)
			}
			dir = *keep
		}
		opts := golden.OpenBenchOptions{Sizes: ns, Opens: *opens}
		if !*asJSON {
			opts.Progress = func(stage string, n int) { fmt.Fprintf(e.stderr, "bench open: n=%d: %s\n", n, stage) }
		}
		res, err := golden.RunOpenBench(e.ctx, func(ctx context.Context, name string) (golden.OpenBenchDB, func() error, error) {
			path := filepath.Join(dir, name+".db")
			if _, err := os.Stat(path); err == nil {
				return nil, nil, engine.Errorf(engine.EINVALID, "bench open: %s exists; remove it or keep the databases elsewhere", path)
			}
			return benchDB{path}, func() error {
				if *keep != "" {
					return nil
				}
				for _, p := range []string{path, path + "-wal", path + "-shm", path + vecfile.Suffix, path + vecfile.Suffix + ".lock", path + lexfile.Suffix, path + lexfile.Suffix + ".lock"} {
					if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
						return err
					}
				}
				return nil
			}, nil
		}, opts)
		if err != nil {
			return err
		}
		return printBench(e, *asJSON, res)
	}
}

// printBench writes a benchmark's result as JSON or as its table.
func printBench(e *env, asJSON bool, res interface{ Text() string }) error {
	if asJSON {
		return writeJSONText(e.stdout, res)
	}
	fmt.Fprint(e.stdout, res.Text())
	return nil
}

// sizedBench checks the arguments of a benchmark over store sizes — no
// positional ones, --n (given back parsed) and a count that must be
// positive — and makes its temporary directory; the caller removes it.
func sizedBench(name string, rest []string, sizes *string, countName string, count *int) ([]int, string, error) {
	if len(rest) > 0 {
		return nil, "", usageError{fmt.Sprintf("unexpected argument %q", rest[0])}
	}
	ns, err := benchInts(*sizes)
	if err != nil {
		return nil, "", usageError{"--n: " + err.Error()}
	}
	if *count <= 0 {
		return nil, "", usageError{"--" + countName + " must be positive"}
	}
	tmp, err := os.MkdirTemp("", "memtrace-bench-")
	if err != nil {
		return nil, "", fmt.Errorf("%s: temporary directory: %w", name, err)
	}
	return ns, tmp, nil
}

// benchDB is one database file of `bench open`.
type benchDB struct{ path string }

func (b benchDB) Fill(ctx context.Context, ms []*engine.Memory) error {
	eng, db, _, err := openEngineAt(ctx, b.path, false, engine.Options{})
	if err != nil {
		return err
	}
	return errors.Join(golden.AddSynthetic(ctx, recall.Over(eng), ms), db.Close())
}

func (b benchDB) ReadFloor(ctx context.Context) (int, error) {
	db, _, err := openStoreAt(ctx, b.path, true)
	if err != nil {
		return 0, err
	}
	n := 0
	err = db.ForEachMemory(ctx, func(*engine.Memory) error { n++; return nil })
	return n, errors.Join(err, db.Close())
}

func (b benchDB) Open(ctx context.Context) (int, func() error, error) {
	eng, db, _, err := openEngineAt(ctx, b.path, true, engine.Options{})
	if err != nil {
		return 0, nil, err
	}
	return eng.Len(), func() error {
		runtime.KeepAlive(eng)
		return db.Close()
	}, nil
}

// benchEmbedder is the embedder --embedder asks a benchmark to use (the
// offline hashed one without the flag), asked once so that a server that
// is not there refuses the run instead of benchmarking another embedder.
func benchEmbedder(e *env, cmd string) (engine.Embedder, error) {
	if e.embedder == "" {
		return engine.NewHashed(engine.HashedDim), nil
	}
	spec, err := parseEmbedder(e.embedder)
	if err != nil {
		return nil, err
	}
	emb, err := spec.build(e.ctx)
	if err != nil {
		return nil, engine.Errorf(engine.ErrorCode(err), "%s --embedder %s: %s; start the server, or leave out --embedder to benchmark the offline hashed embedder",
			cmd, e.embedder, engine.ErrorMessage(err))
	}
	return emb, nil
}

// maxDenseDim bounds `bench recall --dense`: the largest embedding models
// have 4096 dimensions.
const maxDenseDim = 8192

// tempEngines opens each engine on a fresh SQLite file under dir, with
// the embedder emb and the policy cfg (zero: the defaults).
func tempEngines(dir string, emb engine.Embedder, cfg engine.Config) golden.EngineFactory {
	return func(ctx context.Context, name string) (golden.BenchEngine, func() error, error) {
		path := filepath.Join(dir, strings.NewReplacer("/", "_", ":", "_").Replace(name)+".db")
		eng, db, _, err := openEngineAt(ctx, path, false, engine.Options{Embedder: emb, Config: cfg})
		if err != nil {
			return nil, nil, err
		}
		return recall.Over(eng), func() error {
			err := db.Close()
			os.Remove(path)
			os.Remove(path + "-wal")
			os.Remove(path + "-shm")
			return err
		}, nil
	}
}

// scratchEngines opens each engine on a scratch space of --db's
// PostgreSQL server (scratchDatabase), dropped when it is closed.
func scratchEngines(e *env, emb engine.Embedder, cfg engine.Config) golden.EngineFactory {
	return func(ctx context.Context, name string) (golden.BenchEngine, func() error, error) {
		path, drop, err := scratchDatabase(e, name)
		if err != nil {
			return nil, nil, err
		}
		eng, _, closeDB, err := openEngineAt(ctx, path, false, engine.Options{Embedder: emb, Config: cfg})
		if err != nil {
			drop()
			return nil, nil, err
		}
		return recall.Over(eng), func() error {
			closeDB()
			drop()
			return nil
		}, nil
	}
}

// residentMB is the process's resident set size in MiB (Linux
// /proc/self/status VmRSS; 0 where unavailable).
func residentMB() float64 { return procStatusMB("VmRSS:") }

// peakResidentMB is the process's peak resident set size in MiB (VmHWM).
func peakResidentMB() float64 { return procStatusMB("VmHWM:") }

// procStatusMB is a size in kB that /proc/self/status gives under key, in
// MiB to a tenth; 0 where unavailable.
func procStatusMB(key string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseFloat(f[0], 64)
				if err == nil {
					return float64(int64(kb/1024*10+0.5)) / 10
				}
			}
		}
	}
	return 0
}

// benchInts parses "5,10,25".
func benchInts(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer (write e.g. 5,10,25)", part)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no values given")
	}
	return out, nil
}
