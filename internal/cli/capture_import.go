package cli

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/importer"
)

// importCommands are `memtrace import KIND PATH`. Every message importer
// shares importMessages; an importer of another shape adds its own.
func importCommands() []command {
	return []command{
		{name: "md", args: "DIR", summary: "read edited Markdown tiers (from `memtrace export md DIR`) back as proposals and updates", define: importMarkdown},
		{name: "jsonl", args: "FILE|-", summary: "import message JSONL through the capture pipeline; idempotent", define: importMessages("jsonl")},
		{name: "claude-code", args: "FILE|DIR|-", summary: "import Claude Code transcripts (every *.jsonl under DIR, e.g. ~/.claude/projects); idempotent", define: importMessages("claude-code")},
		{name: "locomo", args: "FILE", summary: "import the LoCoMo conversations (locomo10.json); idempotent", define: importMessages("locomo")},
		{name: "memories", args: "PATH", summary: "import an agent's memory store as it is (Chroma, mem0, memory files, JSONL), one audited batch; idempotent", define: importStored},
	}
}

// ImportStats is the `import --json` result: the `ingest --json` contract
// plus the messages skipped because an earlier import already offered them.
type ImportStats struct {
	Kind       string         `json:"kind"`
	Files      int            `json:"files"`
	Offered    int            `json:"offered"`
	Stored     int            `json:"stored"`
	Reinforced int            `json:"reinforced"`
	Dropped    map[string]int `json:"dropped"`
	Skipped    int            `json:"skipped"`
	// NeedsReview: held by the judge in the review queue (not in dropped);
	// JudgeErrors: the judge failed and the rules decided (not an addend).
	NeedsReview int           `json:"needs_review"`
	JudgeErrors int           `json:"judge_errors"`
	Errors      []ImportError `json:"errors"`
}

// ImportError is a malformed input line.
type ImportError struct {
	File  string `json:"file,omitempty"`
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// importBatch is how many messages go through the capture pipeline per
// transaction.
const importBatch = 256

func importMessages(kind string) func(fl *flag.FlagSet) runFunc {
	return func(fl *flag.FlagSet) runFunc {
		asJSON := fl.Bool("json", false, "print the counts as JSON")
		jf := addJudgeFlags(fl)
		return func(e *env, pos []string) error {
			if len(pos) != 1 {
				return usageError{fmt.Sprintf("import %s takes one path", kind)}
			}
			path := pos[0]
			files, err := importFiles(kind, path)
			if err != nil {
				return err
			}
			eng, closeEngine, err := openJudgedEngine(e, jf, false)
			if err != nil {
				return err
			}
			defer closeEngine()

			capt, err := eng.NewCapturer(e.ctx)
			if err != nil {
				return err
			}
			im := &messageImport{env: e, eng: eng, capt: capt,
				stats: ImportStats{Kind: kind, Files: len(files), Dropped: map[string]int{engine.LayerL1: 0, engine.LayerL2: 0, engine.LayerJudge: 0}, Errors: []ImportError{}}}
			for _, f := range files {
				if err := im.file(kind, f); err != nil {
					return err
				}
			}
			if err := im.flush(); err != nil {
				return err
			}
			return printImport(e.stdout, path, im.stats, *asJSON)
		}
	}
}

// importFiles lists what to read: the file itself, "-" for standard input,
// or for claude-code every *.jsonl under a directory (such as
// ~/.claude/projects), in name order.
func importFiles(kind, path string) ([]string, error) {
	if path == "-" {
		if kind == "claude-code" || kind == "jsonl" {
			return []string{"-"}, nil
		}
		return nil, usageError{"locomo reads a file, not standard input"}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, engine.Errorf(engine.ENOTFOUND, "cannot read %s: %v", path, err)
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	if kind != "claude-code" {
		return nil, usageError{fmt.Sprintf("%s is a directory: import %s reads one file", path, kind)}
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", path, err)
	}
	if len(files) == 0 {
		return nil, engine.Errorf(engine.ENOTFOUND, "no .jsonl transcripts under %s (Claude Code keeps them in ~/.claude/projects)", path)
	}
	sort.Strings(files)
	return files, nil
}

// messageImport feeds messages to the capture pipeline in batches. The
// pipeline skips a message whose id (given, or derived from its content)
// was already offered, so importing a file again adds nothing.
type messageImport struct {
	env   *env
	eng   *engine.Engine
	capt  *engine.Capturer // one run, one audit batch
	batch []engine.Message
	stats ImportStats
}

func (im *messageImport) file(kind, name string) error {
	var r io.Reader = im.env.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return engine.Errorf(engine.ENOTFOUND, "cannot read %s: %v", name, err)
		}
		defer f.Close()
		r = f
	}
	var bad []engine.LineError
	var err error
	switch kind {
	case "jsonl":
		bad, err = engine.ReadMessages(r, func(_ int, m engine.Message) error { return im.add(m) })
	case "claude-code":
		bad, err = importer.ReadClaudeCode(r, func(_ int, m engine.Message) error { return im.add(m) })
	case "locomo":
		err = importer.ReadLoCoMo(r, im.add)
	}
	for _, b := range bad {
		im.stats.Errors = append(im.stats.Errors, ImportError{File: name, Line: b.Line, Error: b.Error})
	}
	if err != nil {
		return fmt.Errorf("import %s: %w", name, err)
	}
	return nil
}

func (im *messageImport) add(m engine.Message) error {
	im.batch = append(im.batch, m)
	if len(im.batch) >= importBatch {
		return im.flush()
	}
	return nil
}

func (im *messageImport) flush() error {
	if len(im.batch) == 0 {
		return nil
	}
	rs, err := im.capt.CaptureBatch(im.env.ctx, im.batch)
	if err != nil {
		return err
	}
	for _, r := range rs {
		switch r.Outcome {
		case engine.OutcomeSkipped:
			im.stats.Skipped++
			continue
		case engine.OutcomeStored:
			im.stats.Stored++
		case engine.OutcomeReinforced:
			im.stats.Reinforced++
		case engine.OutcomeDropped:
			im.stats.Dropped[r.DroppedBy]++
		case engine.OutcomeHeld:
			im.stats.NeedsReview++
		default:
			return fmt.Errorf("capture %s: unknown outcome %q", r.MessageID, r.Outcome)
		}
		if r.JudgeError {
			im.stats.JudgeErrors++
		}
		im.stats.Offered++
	}
	im.batch = im.batch[:0]
	return nil
}

func printImport(w io.Writer, path string, s ImportStats, asJSON bool) error {
	if asJSON {
		return writeJSON(w, s)
	}
	dropped := 0
	var layers []string
	for l := range s.Dropped {
		layers = append(layers, l)
	}
	sort.Strings(layers)
	var by []string
	for _, l := range layers {
		dropped += s.Dropped[l]
		by = append(by, fmt.Sprintf("%s %d", l, s.Dropped[l]))
	}
	fmt.Fprintf(w, "imported %s %s (%d file(s))\n", s.Kind, path, s.Files)
	fmt.Fprintf(w, "  offered     %6d\n  stored      %6d\n  reinforced  %6d\n  dropped     %6d  (%s)\n  skipped     %6d  already imported\n  held        %6d  needs_review, in the review queue (`memtrace review list`)\n",
		s.Offered, s.Stored, s.Reinforced, dropped, strings.Join(by, ", "), s.Skipped, s.NeedsReview)
	if s.JudgeErrors > 0 {
		fmt.Fprintf(w, "  judge errors %5d  the rules decided them\n", s.JudgeErrors)
	}
	if len(s.Errors) > 0 {
		fmt.Fprintf(w, "  bad lines   %6d\n", len(s.Errors))
		for _, b := range s.Errors {
			fmt.Fprintf(w, "    %s:%d: %s\n", b.File, b.Line, b.Error)
		}
	}
	return nil
}
