package cli

import (
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"memtrace/engine"
	"memtrace/ollama"

	"memtrace/curate"
	"memtrace/internal/wording"
)

// cmdTriage runs `memtrace triage --type T`: backup, every active memory of
// type T judged by the Ollama judge, verdicts pinned to a JSONL file and
// stored as pending proposals with a control sample for the curator.
func cmdTriage(fs *flag.FlagSet) runFunc {
	typ := fs.String("type", "", requiredMark+"memory `TYPE` to triage, e.g. milestone")
	model := fs.String("model", judgeModelFromEnv(), "judge `MODEL` ($MEMTRACE_JUDGE_MODEL sets the default)")
	sample := fs.Int("sample", curate.DefaultControlSample, "control sample size the curator labels blind (0: none)")
	seed := fs.Uint64("seed", 1, "seed of the control sample")
	verdicts := fs.String("verdicts", "", "verdict `FILE` to write (default triage/verdicts-TYPE-TIME.jsonl beside the DB)")
	backupDir := fs.String("backup-dir", "", "backup `DIR` (default backups/ beside the DB)")
	cachePath := fs.String("cache", "", "judge cache `FILE`, for resuming (default judge-cache.jsonl beside the DB)")
	timeout := fs.Duration("timeout", ollama.DefaultTimeout, "per-request timeout")
	asJSON := fs.Bool("json", false, "print JSON")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		if *typ == "" {
			return usageError{"--type is required, e.g. --type milestone"}
		}
		n := *sample
		if n == 0 {
			n = -1 // RunTriage: negative is "no sample"
		}
		db, clock, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		dir := dataDir(e.dbPath)
		now := clock().UTC()
		if *verdicts == "" {
			*verdicts = filepath.Join(dir, "triage", fmt.Sprintf("verdicts-%s-%s.jsonl", *typ, now.Format("20060102T150405Z")))
		}
		if *backupDir == "" {
			*backupDir = filepath.Join(dir, "backups")
		}
		if *cachePath == "" {
			*cachePath = filepath.Join(dir, "judge-cache.jsonl")
		}

		client := ollama.NewClient(ollama.ClientConfig{Timeout: *timeout, Notify: breakerNotice(e)})
		// Ask Ollama before the backup: a missing model, a model that cannot
		// chat or a stopped server is reported with what to do, and nothing
		// is written.
		if _, err := client.ChatModelInfo(e.ctx, *model); err != nil {
			return err
		}
		cache, err := ollama.NewFileCache(*cachePath)
		if err != nil {
			return err
		}
		defer cache.Close()
		noteJudgeCache(e, db, *cachePath)
		tr := ollama.NewTriager(client, ollama.Options{Model: *model, Cache: cache})
		var progress func(done, total int, v engine.TriageVerdict)
		if !*asJSON {
			progress = func(done, total int, v engine.TriageVerdict) {
				if done == total || done%25 == 0 {
					fmt.Fprintf(e.stderr, "judged %d of %d\n", done, total)
				}
			}
		}
		rep, err := curate.RunTriage(e.ctx, db, tr, curate.TriageOptions{
			Type: *typ, BackupDir: *backupDir, VerdictsFile: *verdicts, SampleSize: n, Seed: *seed, Progress: progress, Now: clock,
		})
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rep)
		}
		fmt.Fprintf(e.stdout, "backup    %s (sha256 %s)\n", rep.Backup.DB, rep.Backup.DBSHA256)
		fmt.Fprintf(e.stdout, "dump      %s (sha256 %s, %s)\n", rep.Backup.Dump, rep.Backup.DumpSHA256, wording.Memories(rep.Backup.Memories))
		fmt.Fprintf(e.stdout, "verdicts  %s\n", rep.VerdictsFile)
		fmt.Fprintf(e.stdout, "judged    %d %s memories with %s (%d from the cache)\n", rep.Judged, *typ, rep.Model, rep.Cached)
		labels := make([]string, 0, len(rep.ByVerdict))
		for l := range rep.ByVerdict {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		for _, l := range labels {
			fmt.Fprintf(e.stdout, "  %-24s %d\n", l, rep.ByVerdict[l])
		}
		if rep.NeedsReview > 0 {
			fmt.Fprintf(e.stdout, "  %-24s %d (invalid answers: label them yourself)\n", "needs_review", rep.NeedsReview)
		}
		if open, msg := client.Tripped(); open {
			fmt.Fprintf(e.stdout, "STOPPED   %s\n", msg)
		}
		if len(rep.Flagged) > 0 {
			ids := make([]string, len(rep.Flagged))
			for i, id := range rep.Flagged {
				ids[i] = fmt.Sprint(id)
			}
			fmt.Fprintf(e.stdout, "FLAGGED   injection_attempt on memories %s: their text tries to instruct the judge\n", strings.Join(ids, ", "))
		}
		fmt.Fprintf(e.stdout, "proposals %d pending (%d already decided left as they were), control sample %d\n", rep.Proposals, rep.Kept, len(rep.Control))
		fmt.Fprintln(e.stdout, "next: open the Curate tab, label the control sample blind, approve, then `memtrace apply --approved`")
		return nil
	}
}
