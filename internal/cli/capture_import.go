package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"memtrace/capture"
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
	// Redacted: messages whose secret values became placeholders, by
	// pattern (as in ingest).
	Redacted map[string]int `json:"redacted,omitempty"`
	// Batch is the audit batch of what the run wrote ("" when it wrote
	// nothing); FailedFiles counts files that could not be read at all or
	// held no message.
	Batch       string `json:"batch,omitempty"`
	FailedFiles int    `json:"failed_files"`
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
		secrets := addSecretsFlag(fl)
		return func(e *env, pos []string) error {
			if len(pos) != 1 {
				return usageError{fmt.Sprintf("import %s takes one path", kind)}
			}
			hold, err := holdSecrets(*secrets)
			if err != nil {
				return err
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

			capt, err := capture.NewCapturer(e.ctx, eng)
			if err != nil {
				return err
			}
			if hold {
				capt.HoldSecrets()
			}
			walked := false
			if fi, err := os.Stat(path); err == nil && fi.IsDir() {
				walked = true
			}
			im := &messageImport{env: e, eng: eng, capt: capt, walked: walked,
				stats: ImportStats{Kind: kind, Files: len(files), Dropped: map[string]int{engine.LayerL1: 0, engine.LayerL2: 0, engine.LayerJudge: 0}, Errors: []ImportError{}}}
			// A file that cannot be read is reported and the others still
			// import; only a failure to write (the database) stops the run.
			// Either way the counts are printed, with what was committed.
			var fatal error
			for _, f := range files {
				if fatal = im.file(kind, f); fatal != nil {
					break
				}
			}
			if fatal == nil {
				fatal = im.flush()
			}
			// The batch is named only when the run wrote under it: a run
			// that skipped or dropped everything has nothing to roll back.
			if b := capt.Batch(); b != "" {
				if rows, err := eng.Store().AuditForBatch(e.ctx, b); err == nil && len(rows) > 0 {
					im.stats.Batch = b
				}
			}
			if err := printImport(e.stdout, path, im.stats, *asJSON); err != nil {
				return err
			}
			committed := fmt.Sprintf("%d stored and %d reinforced were committed", im.stats.Stored, im.stats.Reinforced)
			if im.stats.Batch != "" {
				committed += " in batch " + im.stats.Batch
			}
			switch {
			case fatal != nil:
				return engine.Errorf(engine.ErrorCode(fatal), "import stopped: %s; %s — run the same import again to go on (messages already captured are skipped)",
					engine.ErrorMessage(fatal), committed)
			case im.stats.FailedFiles > 0:
				return engine.Errorf(engine.EINVALID, "%d of %d file(s) could not be imported (listed above); %s", im.stats.FailedFiles, len(files), committed)
			case kind == "jsonl" && len(im.stats.Errors) > 0:
				return engine.Errorf(engine.EINVALID, "%d bad line(s) were not imported (listed above); %s — fix them and run the same import again (messages already captured are skipped)", len(im.stats.Errors), committed)
			}
			return nil
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
		// Links are listed too, so that the import reports them instead
		// of following them or passing over them in silence.
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
	capt  *capture.Capturer // one run, one audit batch
	batch []engine.Message
	stats ImportStats
	read  int // messages read from the current file
	// walked: the files came from a directory walk, where a symbolic link
	// is not followed.
	walked bool
}

// writeError is a failure of the capture pipeline's write: it ends the run.
type writeError struct{ err error }

func (w writeError) Error() string { return w.err.Error() }
func (w writeError) Unwrap() error { return w.err }

// file imports one file. A file it cannot read, or that holds no message,
// is recorded (FailedFiles) and nil is returned so that the next file
// imports; the error it returns is a failed write.
func (im *messageImport) file(kind, name string) error {
	im.read = 0
	fail := func(msg string) error {
		im.stats.Errors = append(im.stats.Errors, ImportError{File: name, Error: msg})
		im.stats.FailedFiles++
		return nil
	}
	var r io.Reader = im.env.stdin
	if name != "-" && im.walked {
		if fi, err := os.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return fail("is a symbolic link; memtrace does not follow links inside a directory it imports (import the target itself if you mean it)")
		}
	}
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(fmt.Sprintf("cannot read the file (%s); nothing of it was imported", osProblem(err)))
		}
		defer f.Close()
		r = f
	}
	add := func(_ int, m engine.Message) error { return im.add(m) }
	var bad []engine.LineError
	var err error
	switch kind {
	case "jsonl":
		bad, err = capture.ReadMessages(r, add)
	case "claude-code":
		bad, err = importer.ReadClaudeCode(r, add)
	case "locomo":
		var problems []string
		problems, err = importer.ReadLoCoMoLenient(r, im.add)
		for _, p := range problems {
			bad = append(bad, engine.LineError{Error: p})
		}
	}
	for _, b := range bad {
		im.stats.Errors = append(im.stats.Errors, ImportError{File: name, Line: b.Line, Error: b.Error})
	}
	var we writeError
	switch {
	case errors.As(err, &we):
		return we.err
	case err != nil:
		return fail(fmt.Sprintf("reading stopped after %d message(s): %s; the messages before it were imported", im.read, osProblem(err)))
	case im.read == 0 && len(bad) > 0:
		return fail(fmt.Sprintf("no message could be read (%d bad line(s))", len(bad)))
	}
	return nil
}

func (im *messageImport) add(m engine.Message) error {
	im.read++
	im.batch = append(im.batch, m)
	if len(im.batch) >= importBatch {
		if err := im.flush(); err != nil {
			return writeError{err}
		}
	}
	return nil
}

// osProblem is an os error without its Go wrapping: "permission denied".
func osProblem(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return engine.ErrorMessage(err)
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
		case capture.OutcomeSkipped:
			im.stats.Skipped++
			continue
		}
		im.stats.Redacted = countRedactions(im.stats.Redacted, r)
		switch r.Outcome {
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
	printRedacted(w, "  ", s.Redacted)
	if len(s.Errors) > 0 {
		fmt.Fprintf(w, "  problems    %6d  (%d file(s) failed)\n", len(s.Errors), s.FailedFiles)
		for _, b := range s.Errors {
			if b.Line > 0 {
				fmt.Fprintf(w, "    %s:%d: %s\n", b.File, b.Line, b.Error)
			} else {
				fmt.Fprintf(w, "    %s: %s\n", b.File, b.Error)
			}
		}
	}
	if s.Batch != "" {
		fmt.Fprintf(w, "  batch       %s  (`memtrace rollback %s` undoes it)\n", s.Batch, s.Batch)
	}
	return nil
}
