package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"memtrace/capture"
	"memtrace/curate"
	"memtrace/engine"
	"memtrace/importer"
	"memtrace/internal/safetext"
	"memtrace/internal/textable"
	"memtrace/internal/wording"
	"memtrace/store"
)

// importStored runs `memtrace import memories PATH [--from KIND]`: an agent's
// existing memory store imported as it is — no filters at the door — in one
// audited batch, so that `memtrace audit` can say how polluted it is and
// cleanup, triage and rollback work on it as on any memtrace database.
func importStored(fl *flag.FlagSet) runFunc {
	from := fl.String("from", "", "the source's `KIND`: "+strings.Join(importer.StoredSources(), ", ")+" (default: detected from PATH)")
	prefix := fl.String("key-prefix", "", "put `PREFIX` before every source id to make the memory's key (for two stores whose ids could collide)")
	asJSON := fl.Bool("json", false, "print the counts as JSON")
	payloads := fl.String("payloads", "", "mem0: the vector store's points as JSON Lines (`FILE`; a Qdrant scroll), where mem0 keeps each memory's user_id")
	users := fl.String("users", capture.UsersScope, "keep the users a source names apart: `MODE` scope (a scope domain:user-ID each), space (a database per user beside --db) or merge (one pool; user_id kept as metadata)")
	as := fl.String("as", "", "memory files: whose they are, `WHO` user (~/.claude: global) or project (a repository: project:NAME); default: detected")
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
		switch *users {
		case capture.UsersScope, capture.UsersSpace, capture.UsersMerge:
		default:
			return usageError{fmt.Sprintf("--users %q: use scope, space or merge", *users)}
		}
		recs, problems, err := importer.ReadStored(kind, path, importer.ReadOptions{Payloads: *payloads, As: *as})
		if err != nil {
			return err
		}
		o := capture.MemoryImportOptions{Source: kind, Path: path, KeyPrefix: *prefix, Users: *users}
		for _, part := range splitByUser(e, recs, problems, *users) {
			eng, _, closeDB, err := openEngine(part.env, false, engine.Options{})
			if err != nil {
				return err
			}
			rep, err := capture.ImportMemories(e.ctx, eng, o, part.recs, part.problems)
			closeDB()
			if err != nil {
				return err
			}
			if *asJSON {
				if err := writeJSONText(e.stdout, sanitizedImportReport(rep)); err != nil {
					return err
				}
			} else {
				if part.owner != "" {
					fmt.Fprintf(e.stdout, "user %s → %s\n", safetext.SanitizeLine(part.owner), safetext.SanitizeLine(part.env.dbPath))
				}
				printStoredImport(e.stdout, rep)
			}
			if rep.Stored == 0 && rep.AlreadyImported == 0 && rep.Offered > 0 {
				return engine.Errorf(engine.EINVALID, "no memory of %s could be imported (%d errors); fix the records listed above", path, rep.Errors)
			}
		}
		return nil
	}
}

// userPart is the records one database takes.
type userPart struct {
	env      *env
	owner    string
	recs     []capture.StoredMemory
	problems []capture.RecordError
}

// splitByUser is one part for --db, unless --users space: then each user's
// records go to that user's database (userDB) and the records without a
// user, with the problems, to --db.
func splitByUser(e *env, recs []capture.StoredMemory, problems []capture.RecordError, mode string) []userPart {
	if mode != capture.UsersSpace {
		return []userPart{{env: e, recs: recs, problems: problems}}
	}
	parts := []userPart{{env: e, problems: problems}}
	at := map[string]int{}
	for _, r := range recs {
		i, ok := at[r.Owner]
		if r.Owner == "" {
			i, ok = 0, true
		}
		if !ok {
			c := *e
			c.dbPath = userDB(e.dbPath, r.Owner)
			parts = append(parts, userPart{env: &c, owner: r.Owner})
			i = len(parts) - 1
			at[r.Owner] = i
		}
		parts[i].recs = append(parts[i].recs, r)
	}
	if len(parts[0].recs) == 0 && len(parts[0].problems) == 0 && len(parts) > 1 {
		parts = parts[1:]
	}
	return parts
}

// userDB is the database of a user under --users space: the PostgreSQL
// space user_ID of --db's server, or the SQLite file beside --db named
// NAME.user-ID.db.
func userDB(db, owner string) string {
	name := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, owner)
	if store.IsDSN(db) {
		return store.SpaceDSN(db, strings.ToLower("user_"+name))
	}
	ext := filepath.Ext(db)
	return strings.TrimSuffix(db, ext) + ".user-" + name + ext
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
	printRedacted(w, "", r.Redacted)
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
	fmt.Fprintf(w, "\nlabel prefixes: %s with one\n", wording.Memories(r.Labelled))
	if len(r.LabelPrefixes) > 0 {
		census(w, "PREFIX", r.LabelPrefixes)
	}
	switch d := r.Duplicates; {
	case d.VectorOff:
		fmt.Fprintf(w, "\nduplicates: %d exact, %d near (this embedder scores different facts as one: only the same content counts)\n", d.Exact, d.Near)
	case d.Calibrated:
		fmt.Fprintf(w, "\nduplicates: %d exact, %d near (cosine ≥ %.2f, the dedupe similarity calibrated on this embedder)\n", d.Exact, d.Near, d.Threshold)
	default:
		fmt.Fprintf(w, "\nduplicates: %d exact, %d near (cosine ≥ %.2f, the configured dedupe similarity: the embedder is away)\n", d.Exact, d.Near, d.Threshold)
	}
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
	printAuditSecrets(w, r.Secrets)
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

// printAuditSecrets writes the audit's secrets section: placeholders by
// type, and the memories that hold a value in clear.
func printAuditSecrets(w io.Writer, s curate.AuditSecrets) {
	n := 0
	for _, x := range s.Redacted {
		n += x.Count
	}
	fmt.Fprintf(w, "\nsecrets (every memory not erased; `memtrace help secrets`): %d placeholders left by redaction, %d memories hold a value in clear\n", n, s.InClearMemories)
	if len(s.Redacted)+len(s.InClear) > 0 {
		t := textable.New("SECRETS", "PATTERN", "COUNT").AlignRight(2)
		for _, x := range s.Redacted {
			t.Add("redacted", x.Reason, x.Count)
		}
		for _, x := range s.InClear {
			t.Add("in clear", x.Reason, x.Count)
		}
		t.Write(w)
	}
	if len(s.InClearIDs) > 0 {
		ids := make([]string, len(s.InClearIDs))
		for i, id := range s.InClearIDs {
			ids[i] = fmt.Sprint(id)
		}
		fmt.Fprintf(w, "values in clear (stored before redaction, or outside memtrace): `memtrace erase %s --reason …` removes them for good (the first %d)\n", strings.Join(ids, " "), len(ids))
	}
}
