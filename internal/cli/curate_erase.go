package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"memtrace/curate"
	"memtrace/engine"
	"memtrace/internal/safetext"
	"memtrace/internal/wording"
	"memtrace/recall"
)

// cmdErase runs `memtrace erase [ID|key:K …] [--text T] [--subject S]
// [--session S] [--source SRC] --reason WHY [--confirm N] [--dry-run]
// [--json]`: the curator's erasure (issue 31). It lists what it will
// remove and asks twice (y, then the number of memories); --confirm N
// answers both for a script, and must name the count the search found. It
// cannot be rolled back and says so. --compact only reruns the compaction
// (VACUUM and WAL truncation) an earlier erasure could not finish.
func cmdErase(fs *flag.FlagSet) runFunc {
	text := fs.String("text", "", "erase the memories whose content contains `TEXT` (case-insensitive)")
	subject := fs.String("subject", "", "erase what a recall for `SUBJECT` finds by its words (every candidate, not only the prompt's)")
	session := fs.String("session", "", "erase the memories of `SESSION`")
	source := fs.String("source", "", "erase the memories imported from `SOURCE` (jsonl, chroma, mem0, memory-files; capture: captured ones)")
	reason := fs.String("reason", "", "why (kept on the tombstone); required")
	confirm := fs.Int("confirm", -1, "do not ask: confirm the erasure of exactly `N` memories (the count the search finds)")
	dryRun := fs.Bool("dry-run", false, "only list what would be erased")
	compact := fs.Bool("compact", false, "only rerun the compaction of an erasure (VACUUM, WAL truncation; VACUUM FULL on PostgreSQL)")
	asJSON := fs.Bool("json", false, "print the erasure report as JSON")
	return func(e *env, words []string) error {
		eng, db, closeDB, err := openEngine(e, true, engine.Options{})
		if err != nil {
			return err
		}
		defer closeDB()
		if *compact {
			rep, err := db.Compact(e.ctx)
			if err != nil {
				return err
			}
			if *asJSON {
				return writeJSON(e.stdout, rep)
			}
			writeCompaction(e.stdout, rep)
			return nil
		}
		sel := curate.EraseSelector{Text: *text, Session: *session, Source: *source}
		for _, w := range words {
			if k, ok := strings.CutPrefix(w, "key:"); ok {
				sel.Keys = append(sel.Keys, k)
				continue
			}
			id, perr := strconv.ParseInt(w, 10, 64)
			if perr != nil {
				return usageError{fmt.Sprintf("%q is neither a memory id nor key:K", w)}
			}
			sel.IDs = append(sel.IDs, id)
		}
		if sel.Empty() && *subject == "" {
			return usageError{"name what to erase: ID… or key:K, or --text, --subject, --session, --source"}
		}
		out := e.stdout
		if *asJSON {
			out = e.stderr
		}
		var ms []*engine.Memory
		if !sel.Empty() {
			if ms, err = curate.FindErasable(e.ctx, eng.Store(), sel); err != nil {
				return err
			}
		}
		if *subject != "" {
			tr, err := recall.Recall(e.ctx, eng, curate.SubjectQuery(*subject, eng.Now()))
			if err != nil {
				return err
			}
			found, err := curate.SubjectCandidates(e.ctx, eng.Store(), tr)
			if err != nil {
				return err
			}
			if st := tr.Stage("candidates"); st != nil {
				fmt.Fprintf(out, "recall for %q: %d candidates, %d named by its words\n", safetext.SanitizeLine(*subject), st.Out, len(found))
			}
			ms = mergeMemories(ms, found)
		}
		if len(ms) == 0 {
			return engine.Errorf(engine.ENOTFOUND, "nothing to erase: no memory (not yet erased) matches; find one with `memtrace list --text WORD`")
		}
		fmt.Fprintf(out, "erase will remove the text of %s from every table, index and trace:\n", wording.Memories(len(ms)))
		for _, m := range ms {
			fmt.Fprintf(out, "  #%d  %-10s %-11s %s\n", m.ID, m.Status, safetext.SanitizeLine(m.Key), safetext.SanitizeLine(safetext.Truncate(m.Content, 70)))
		}
		fmt.Fprintln(out, "an erasure cannot be rolled back: the text is gone for good (a tombstone keeps who, when, why and a salted hash)")
		if *dryRun {
			fmt.Fprintln(out, "dry run: nothing erased; run it again without --dry-run, with --reason, to erase")
			return nil
		}
		if strings.TrimSpace(*reason) == "" {
			return usageError{"say why with --reason: the tombstone keeps it"}
		}
		switch {
		case *confirm >= 0 && *confirm != len(ms):
			return engine.Errorf(engine.ECONFLICT, "--confirm %d but the search found %s; nothing erased (check the list with --dry-run)", *confirm, wording.Memories(len(ms)))
		case *confirm < 0:
			if err := confirmErase(e, out, len(ms)); err != nil {
				return err
			}
		}
		rep, err := curate.Erase(e.ctx, eng.Store(), ms, engine.ActorCurator, *reason)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rep)
		}
		writeEraseReport(e.stdout, rep)
		return nil
	}
}

// mergeMemories is a ∪ b by id, in id order.
func mergeMemories(a, b []*engine.Memory) []*engine.Memory {
	seen := map[int64]bool{}
	var out []*engine.Memory
	for _, m := range append(a, b...) {
		if !seen[m.ID] {
			seen[m.ID] = true
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// confirmErase asks twice: y, then the number of memories.
func confirmErase(e *env, out io.Writer, n int) error {
	in := bufio.NewReader(e.stdin)
	ask := func(prompt string) (string, error) {
		fmt.Fprint(out, prompt)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", engine.Errorf(engine.EINVALID, "no answer on standard input; to erase without asking add --confirm %d", n)
		}
		return strings.TrimSpace(line), nil
	}
	a, err := ask("erase them? this cannot be undone [y/N] ")
	if err != nil {
		return err
	}
	if a != "y" && a != "Y" && a != "yes" {
		return engine.Errorf(engine.ECONFLICT, "cancelled; nothing erased")
	}
	a, err = ask(fmt.Sprintf("type %d to erase %s for good: ", n, wording.Memories(n)))
	if err != nil {
		return err
	}
	if a != strconv.Itoa(n) {
		return engine.Errorf(engine.ECONFLICT, "cancelled (%q is not %d); nothing erased", a, n)
	}
	return nil
}

func writeEraseReport(w io.Writer, rep *engine.EraseReport) {
	fmt.Fprintf(w, "erased %s in batch %s (it cannot be rolled back)\n", wording.Memories(len(rep.Erased)), rep.Batch)
	var tables []string
	for t := range rep.Scrubbed {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, t := range tables {
		fmt.Fprintf(w, "  %s: %s\n", t, wording.Count(rep.Scrubbed[t], "row"))
	}
	writeCompaction(w, rep)
	if len(rep.Artifacts) > 0 {
		fmt.Fprintf(w, "files written before this erasure may still hold the text; memtrace cannot reach into them, delete or rewrite them by hand:\n")
		for _, a := range rep.Artifacts {
			fmt.Fprintf(w, "  %-7s %s  %s\n", a.Kind, a.At.Format("2006-01-02 15:04:05"), safetext.SanitizeLine(a.Path))
		}
	}
}

func writeCompaction(w io.Writer, rep *engine.EraseReport) {
	for _, c := range rep.Compaction {
		fmt.Fprintf(w, "  done: %s\n", c)
	}
	for _, p := range rep.Pending {
		fmt.Fprintf(w, "  still to do: %s\n", p)
	}
}

// recordArtifact notes a file this run wrote outside the database (an
// export, an --otel file), so that a later erasure can list it. A database
// that cannot take the note (read-only) gets a warning, not a failure: the
// file itself was written.
func recordArtifact(e *env, kind, path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	db, _, err := openStore(e, true)
	if err == nil {
		err = curate.NoteArtifact(e.ctx, db, kind, path)
		db.Close()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: could not record %s %s for later erasures: %v\n", kind, path, err)
	}
}

// noteJudgeCache records the judge cache file a run uses on st (once per
// file), so that an erasure rewrites it without the erased texts' entries.
func noteJudgeCache(e *env, st engine.Store, path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if err := curate.NoteArtifact(e.ctx, st, engine.ArtifactJudgeCache, path); err != nil {
		fmt.Fprintf(e.stderr, "warning: could not record the judge cache %s for later erasures: %v\n", safetext.SanitizeLine(path), err)
	}
}
