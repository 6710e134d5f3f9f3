package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
	"memtrace/store"
)

// defaultIngestBatch is how many messages share one transaction.
const defaultIngestBatch = 500

// cmdIngest runs `memtrace ingest FILE.jsonl|-`: every message through the
// capture pipeline, in batches of one transaction each.
func cmdIngest(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the IngestStats JSON contract")
	batch := fs.Int("batch", defaultIngestBatch, "messages per transaction")
	allowBad := fs.Bool("allow-bad-lines", false, "exit 0 when some lines were refused and the rest ingested (the lines are still reported on stderr)")
	jf := addJudgeFlags(fs)
	secrets := addSecretsFlag(fs)
	return func(e *env, words []string) error {
		if len(words) != 1 {
			return usageError{"want one FILE.jsonl, or - for standard input"}
		}
		if *batch < 1 {
			return usageError{"--batch must be at least 1"}
		}
		hold, err := holdSecrets(*secrets)
		if err != nil {
			return err
		}
		in := e.stdin
		name := "standard input"
		if words[0] != "-" {
			f, err := os.Open(words[0])
			if err != nil {
				return engine.Errorf(engine.ENOTFOUND, "cannot open %s: %v; check the path", words[0], err)
			}
			defer f.Close()
			in, name = f, words[0]
		}
		created := newDatabaseFile(e.dbPath)
		eng, closeEngine, err := openJudgedEngine(e, jf, false)
		if err != nil {
			return err
		}
		closeOnce := sync.OnceFunc(closeEngine)
		defer closeOnce()
		t, err := ingestStream(e.ctx, eng, in, *batch, hold)
		if created && (t == nil || (t.Stats.Offered == 0 && len(t.Stats.Errors) > 0)) {
			// Nothing went in and the run fails: the database it created
			// is removed again, so a wrong file or path leaves nothing
			// behind. (An empty input exits 0 and keeps the new, empty
			// database: scripts create one that way to pin its clock.)
			closeOnce()
			removeNewDatabase(e.dbPath)
		}
		if t == nil {
			return err
		}
		// The counts are printed even when the run stopped: they say what
		// was committed.
		if *asJSON {
			if perr := writeJSON(e.stdout, t.Stats); perr != nil {
				return perr
			}
		} else {
			t.print(e.stdout, name)
		}
		t.printLineErrors(e.stderr)
		if err != nil {
			return engine.Errorf(engine.ErrorCode(err), "ingest stopped: %s; the %d stored and %d reinforced before it stopped are committed — run the same ingest again to go on (messages already captured are skipped)",
				engine.ErrorMessage(err), t.Stats.Stored, t.Stats.Reinforced)
		}
		if t.Stats.Offered == 0 && len(t.Stats.Errors) > 0 {
			msg := fmt.Sprintf("no message of %s could be read (%s above); nothing was imported", name, wording.Count(len(t.Stats.Errors), "bad line"))
			if created {
				msg += ", and the new database was not kept"
			}
			return engine.Errorf(engine.EINVALID, "%s", msg)
		}
		if len(t.Stats.Errors) > 0 && *allowBad {
			fmt.Fprintf(e.stderr, "%s (--allow-bad-lines: exit 0)\n", notIngested(len(t.Stats.Errors), name, t.Stats.Offered))
			return nil
		}
		if len(t.Stats.Errors) > 0 {
			// The rest is committed; the exit status still says that not
			// every line went in, so a script notices.
			return engine.Errorf(engine.EINVALID, "%s — fix those lines and run the same ingest again (messages already captured are skipped), or pass --allow-bad-lines for a zero exit",
				notIngested(len(t.Stats.Errors), name, t.Stats.Offered))
		}
		return nil
	}
}

// ingestTally is what an ingest did: the JSON contract plus what the human
// output shows beside it.
type ingestTally struct {
	Stats     engine.IngestStats
	ByPattern map[string]int // "l1/too_short" → n
	Lessons   map[string]*engine.Correction
	Decider   string
	// HeldSecrets: of Stats.NeedsReview, the messages --secrets hold held.
	HeldSecrets int
}

// ingestStream reads message JSONL from r and captures it in batches.
func ingestStream(ctx context.Context, eng *engine.Engine, r io.Reader, batchSize int, hold bool) (*ingestTally, error) {
	t := &ingestTally{
		Stats:     engine.IngestStats{Dropped: map[string]int{engine.LayerL1: 0, engine.LayerL2: 0, engine.LayerJudge: 0}, Errors: []engine.LineError{}},
		ByPattern: map[string]int{},
		Lessons:   map[string]*engine.Correction{},
	}
	c, err := capture.NewCapturer(ctx, eng)
	if err != nil {
		return nil, err
	}
	if hold {
		c.HoldSecrets()
	}
	var batch []engine.Message
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		rs, err := c.CaptureBatch(ctx, batch)
		if err != nil {
			return err
		}
		for _, res := range rs {
			t.add(res)
		}
		batch = batch[:0]
		return nil
	}
	errs, err := capture.ReadMessages(r, func(_ int, m engine.Message) error {
		batch = append(batch, m)
		if len(batch) >= batchSize {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	t.Stats.Errors = append(t.Stats.Errors, errs...)
	if err != nil {
		return t, err
	}
	return t, nil
}

func (t *ingestTally) add(r *engine.CaptureResult) {
	t.Stats.Offered++
	if r.Outcome != capture.OutcomeSkipped { // counted when it was offered first
		t.Stats.Redacted = countRedactions(t.Stats.Redacted, r)
	}
	if r.Decider != "" {
		t.Decider = r.Decider
	}
	switch r.Outcome {
	case engine.OutcomeStored:
		t.Stats.Stored++
	case engine.OutcomeReinforced:
		t.Stats.Reinforced++
	case engine.OutcomeDropped:
		t.Stats.Dropped[r.DroppedBy]++
		reason := r.Reason
		if r.DroppedBy == engine.LayerJudge {
			reason = "judge skip"
		}
		t.ByPattern[r.DroppedBy+"/"+reason]++
	case engine.OutcomeHeld:
		t.Stats.NeedsReview++
		if r.Reason == capture.ReasonSecretHeld {
			t.HeldSecrets++
		}
	case capture.OutcomeSkipped:
		t.Stats.Skipped++
	}
	if r.JudgeError {
		t.Stats.JudgeErrors++
	}
	if r.Correction != nil {
		t.Lessons[r.Correction.LessonKey] = r.Correction
	}
}

// print writes the human summary.
func (t *ingestTally) print(w io.Writer, name string) {
	s := t.Stats
	dropped := s.Dropped[engine.LayerL1] + s.Dropped[engine.LayerL2] + s.Dropped[engine.LayerJudge]
	fmt.Fprintf(w, "ingested %s: %d offered, %d stored, %d reinforced, %d dropped, %d skipped (already captured), %d held for review\n",
		name, s.Offered, s.Stored, s.Reinforced, dropped, s.Skipped, s.NeedsReview)
	decider := t.Decider
	if decider == "" {
		decider = "rules"
	}
	fmt.Fprintf(w, "dropped by layer: l1 %d, l2 %d, judge %d (decider: %s)\n",
		s.Dropped[engine.LayerL1], s.Dropped[engine.LayerL2], s.Dropped[engine.LayerJudge], decider)
	if t.HeldSecrets > 0 {
		fmt.Fprintf(w, "%d message(s) with secret values held in the review queue (--secrets hold): `memtrace review list` shows them raw, `memtrace review store ID…` stores them with placeholders, `memtrace review skip ID…` drops them\n", t.HeldSecrets)
	}
	if s.NeedsReview > t.HeldSecrets {
		fmt.Fprintf(w, "%d message(s) held as needs_review (the judge's answer did not validate): they wait in the review queue — `memtrace review list`, then `memtrace review retry --judge MODEL` or `memtrace review store|skip ID…`\n", s.NeedsReview-t.HeldSecrets)
	}
	if s.JudgeErrors > 0 {
		fmt.Fprintf(w, "the judge failed on %d message(s); the rules decided them (each capture's trail says why)\n", s.JudgeErrors)
	}
	if len(t.ByPattern) > 0 {
		fmt.Fprintln(w, "dropped by pattern:")
		for _, k := range byCount(t.ByPattern) {
			fmt.Fprintf(w, "  %5d  %s\n", t.ByPattern[k], k)
		}
	}
	printRedacted(w, "", s.Redacted)
	if len(t.Lessons) > 0 {
		keys := make([]string, 0, len(t.Lessons))
		for k := range t.Lessons {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintln(w, "lessons seen:")
		for _, k := range keys {
			c := t.Lessons[k]
			fmt.Fprintf(w, "  %d/%d  %-9s  %s\n", c.Count, engine.PromotionThreshold, c.Status, safetext.SanitizeLine(k))
		}
	}
}

// byCount is the keys of counts, the largest count first, then by name.
func byCount(counts map[string]int) []string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// printLineErrors writes the refused lines, one each, to w (stderr: the
// summary on stdout stays the counts a script reads).
func (t *ingestTally) printLineErrors(w io.Writer) {
	for _, le := range t.Stats.Errors {
		fmt.Fprintln(w, le.String())
	}
}

// newDatabaseFile reports whether path names a SQLite file that does not
// exist yet (this run will create it); a PostgreSQL address is never new.
func newDatabaseFile(path string) bool {
	if store.IsDSN(path) {
		return false
	}
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// removeNewDatabase removes the SQLite file a run created, with its
// write-ahead log and shared-memory files, when the run put nothing in it.
func removeNewDatabase(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		os.Remove(p)
	}
}

// countRedactions adds the patterns redacted in r's message to counts (made
// when the first one comes).
func countRedactions(counts map[string]int, r *engine.CaptureResult) map[string]int {
	for _, name := range capture.Redactions(r) {
		if counts == nil {
			counts = map[string]int{}
		}
		counts[name]++
	}
	return counts
}

// printRedacted writes the redaction counts by pattern on one line.
func printRedacted(w io.Writer, indent string, counts map[string]int) {
	if len(counts) == 0 {
		return
	}
	names := byCount(counts)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, counts[n])
	}
	fmt.Fprintf(w, "%sredacted by pattern (messages whose secret values became placeholders; `memtrace help secrets`): %s\n", indent, strings.Join(parts, ", "))
}

// addSecretsFlag is --secrets, what a capture run does with a message that
// holds a secret value.
func addSecretsFlag(fs *flag.FlagSet) *string {
	return fs.String("secrets", "redact", "what to do with a message holding a secret value, `MODE`: redact (store it with placeholders) or hold (in the review queue, raw value shown only there; `memtrace help secrets`)")
}

// holdSecrets reads --secrets.
func holdSecrets(mode string) (bool, error) {
	switch mode {
	case "redact":
		return false, nil
	case "hold":
		return true, nil
	}
	return false, usageError{fmt.Sprintf("--secrets %q: want redact or hold", mode)}
}

// notIngested says how many lines of name were refused and how many
// messages went in: "1 line of x.jsonl was not ingested (reported above);
// the other 6 messages were".
func notIngested(bad int, name string, offered int) string {
	return fmt.Sprintf("%s of %s %s not ingested (reported above); the other %s %s",
		wording.Count(bad, "line"), name, wording.Was(bad), wording.Count(offered, "message"), wording.Was(offered))
}
