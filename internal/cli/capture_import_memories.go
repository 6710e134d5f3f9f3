package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
	"memtrace/importer"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
)

// importStored runs `memtrace import memories PATH [--from KIND]`: an agent's
// existing memory store imported as it is — no filters at the door — in one
// audited batch, so that `memtrace audit` can say how polluted it is and
// cleanup, triage and rollback work on it as on any memtrace database.
func importStored(fl *flag.FlagSet) runFunc {
	from := fl.String("from", "", "the source's `KIND`: "+strings.Join(importer.StoredSources(), ", ")+" (default: detected from PATH)")
	prefix := fl.String("key-prefix", "", "put `PREFIX` before every source id to make the memory's key (for two stores whose ids could collide)")
	asJSON := fl.Bool("json", false, "print the counts as JSON")
	return func(e *env, pos []string) error {
		if len(pos) != 1 {
			return usageError{"import memories takes one path: a Chroma directory, a mem0 history database, a directory of memory files or a JSONL file"}
		}
		path := pos[0]
		kind := *from
		if kind == "" {
			var err error
			if kind, err = importer.DetectSource(path); err != nil {
				return err
			}
		}
		recs, problems, err := importer.ReadStored(kind, path)
		if err != nil {
			return err
		}
		eng, _, closeDB, err := openEngine(e, false, engine.Options{})
		if err != nil {
			return err
		}
		defer closeDB()
		rep, err := capture.ImportMemories(e.ctx, eng, capture.MemoryImportOptions{Source: kind, Path: path, KeyPrefix: *prefix}, recs, problems)
		if err != nil {
			return err
		}
		if *asJSON {
			if err := writeJSONText(e.stdout, sanitizedImportReport(rep)); err != nil {
				return err
			}
		} else {
			printStoredImport(e.stdout, rep)
		}
		if rep.Stored == 0 && rep.AlreadyImported == 0 && rep.Offered > 0 {
			return engine.Errorf(engine.EINVALID, "no memory of %s could be imported (%d errors); fix the records listed above", path, rep.Errors)
		}
		return nil
	}
}

func sanitizedImportReport(r *capture.MemoryImportReport) *capture.MemoryImportReport {
	c := *r
	c.Problems = make([]capture.RecordError, len(r.Problems))
	for i, p := range r.Problems {
		c.Problems[i] = capture.RecordError{Position: safetext.SanitizeLine(p.Position), Error: safetext.SanitizeLine(p.Error)}
	}
	return &c
}

func printStoredImport(w io.Writer, r *capture.MemoryImportReport) {
	fmt.Fprintf(w, "import memories (%s) %s: offered %d, stored %d (%d quarantined: deleted in the source), already imported %d, errors %d\n",
		r.Source, safetext.SanitizeLine(r.Path), r.Offered, r.Stored, r.Quarantined, r.AlreadyImported, r.Errors)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s: %s\n", safetext.SanitizeLine(p.Position), safetext.SanitizeLine(p.Error))
	}
	if r.Batch != "" {
		fmt.Fprintf(w, "batch %s (undo with `memtrace rollback %s`); see what you have with `memtrace audit`\n", r.Batch, r.Batch)
	} else if r.AlreadyImported > 0 {
		fmt.Fprintln(w, "nothing new: every memory of this source is already in the database")
	}
}

// cmdAudit runs `memtrace audit`: seed 000's look at a store — noise by
// pattern, types, label prefixes, duplicates and what today's capture
// pipeline would not have stored. Read-only.
func cmdAudit(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the audit as JSON")
	return func(e *env, words []string) error {
		if len(words) > 0 {
			return usageError{"unexpected argument " + words[0]}
		}
		eng, _, closeDB, err := openEngine(e, true, engine.Options{})
		if err != nil {
			return err
		}
		defer closeDB()
		rep, err := curate.AuditStore(e.ctx, eng)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSONText(e.stdout, sanitizedAudit(rep))
		}
		printAudit(e.stdout, rep)
		return nil
	}
}

func sanitizedAudit(r *curate.StoreAudit) *curate.StoreAudit {
	c := *r
	clean := func(rows []curate.AuditCount) []curate.AuditCount {
		out := make([]curate.AuditCount, len(rows))
		for i, x := range rows {
			x.Name = safetext.SanitizeLine(x.Name)
			out[i] = x
		}
		return out
	}
	c.Types, c.LabelPrefixes = clean(r.Types), clean(r.LabelPrefixes)
	return &c
}

func printAudit(w io.Writer, r *curate.StoreAudit) {
	fmt.Fprintf(w, "%d memories: %d active, %d quarantined, %d archived; the figures below are about the %d active\n\n",
		r.Memories, r.ByStatus[engine.StatusActive], r.ByStatus[engine.StatusQuarantined], r.ByStatus[engine.StatusArchived], r.Scanned)
	fmt.Fprintln(w, "noise (seed 000's patterns)")
	tbl := textable.New("PATTERN", "LAYER", "COUNT", "SHARE", "KEPT (has other info)").AlignRight(2, 3, 4)
	for _, p := range r.Noise.Patterns {
		tbl.Add(p.Pattern, p.Layer, p.Count, pct(p.Share), p.Kept)
	}
	tbl.Add("total", "", r.Noise.Count, pct(r.Noise.Share), "")
	tbl.Write(w)

	fmt.Fprintln(w, "\ntypes")
	census(w, "TYPE", r.Types)
	fmt.Fprintf(w, "\nlabel prefixes: %d memories carry one\n", r.Labelled)
	if len(r.LabelPrefixes) > 0 {
		census(w, "PREFIX", r.LabelPrefixes)
	}
	fmt.Fprintf(w, "\nduplicates: %d exact, %d near (cosine ≥ the dedupe similarity)\n", r.Duplicates.Exact, r.Duplicates.Near)
	for _, d := range r.Duplicates.Examples {
		how := "same text as"
		if !d.Exact {
			how = fmt.Sprintf("%.2f similar to", d.Score)
		}
		fmt.Fprintf(w, "  memory %d: %s memory %d\n", d.MemoryID, how, d.Of)
	}
	if r.WouldNotStore.Unavailable != "" {
		fmt.Fprintf(w, "\nwould not be stored by today's capture pipeline: not computed (%s)\n", safetext.SanitizeLine(r.WouldNotStore.Unavailable))
	} else {
		fmt.Fprintf(w, "\nwould not be stored by today's capture pipeline: %d (%s)\n", r.WouldNotStore.Count, pct(r.WouldNotStore.Share))
	}
	if len(r.WouldNotStore.ByReason) > 0 {
		t := textable.New("LAYER", "REASON", "COUNT").AlignRight(2)
		for _, x := range r.WouldNotStore.ByReason {
			t.Add(x.Layer, safetext.SanitizeLine(x.Reason), x.Count)
		}
		t.Write(w)
	}
	if r.Noise.Count > 0 {
		fmt.Fprintln(w, "\nnext: `memtrace cleanup` proposes quarantine for the noise; `memtrace triage --type milestone` judges a type")
	}
}

func census(w io.Writer, head string, rows []curate.AuditCount) {
	t := textable.New(head, "COUNT", "SHARE").AlignRight(1, 2)
	for _, x := range rows {
		t.Add(safetext.SanitizeLine(x.Name), x.Count, pct(x.Share))
	}
	t.Write(w)
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", v) }
