package main

import (
	"flag"
	"io"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
)

// cmdCompare runs `memtrace compare TEXT --at-a T --at-b T`: the same
// query recalled read-only at two times, and what changed between them —
// what is forgotten, what rises, what falls, what is new.
func cmdCompare(e *env, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	atA := fs.String("at-a", "now", "time A: now, +30d, -2h or RFC 3339 (relative to the database clock)")
	atB := fs.String("at-b", "+90d", "time B, as --at-a")
	session := fs.String("session", "", "the live session")
	project := fs.String("project", "", "the project the query is about")
	k := fs.Int("k", 0, "memories to recall (default from config)")
	budget := fs.Int("budget", 0, "prompt budget in characters (default from config)")
	includeCold := fs.Bool("include-cold", false, "also recall archived (COLD) memories")
	asJSON := fs.Bool("json", false, "print the comparison as JSON (see docs/inspector.md)")
	otel := fs.String("otel", "", "also write both recalls as OpenTelemetry-style spans (JSONL) to FILE")
	text, err := queryText(fs, args, "compare")
	if err != nil {
		return err
	}
	if *k < 0 || *budget < 0 {
		return usageError{"--k and --budget must be positive"}
	}
	eng, closeStore, err := openRecallEngine(e)
	if err != nil {
		return err
	}
	defer closeStore()
	a, err := inspector.At(eng, *atA)
	if err != nil {
		return usageError{"--at-a: " + engine.ErrorMessage(err)}
	}
	b, err := inspector.At(eng, *atB)
	if err != nil {
		return usageError{"--at-b: " + engine.ErrorMessage(err)}
	}
	c, err := inspector.Compare(e.ctx, eng, engine.Query{
		Text: text, Session: *session, Project: *project, K: *k, Budget: *budget, IncludeCold: *includeCold,
	}, a, b)
	if err != nil {
		return err
	}
	if *otel != "" {
		if err := writeOTel(*otel, time.Now(), c.A, c.B); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSONText(e.stdout, c)
	}
	c.WriteText(e.stdout)
	return nil
}
