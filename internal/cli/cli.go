// Package cli is memtrace's command line: the subcommands, their flags and
// the one path by which each opens the database and the engine. main wires
// it to the process (signals, streams, exit code); everything else is here.
//
// Flags use the standard library's flag package, one FlagSet a command, as
// litestream's cmd/litestream does: the global flags (--db) are registered
// on every command's set by registerGlobalFlags, so they work before or
// after the command name, and the usage lines and `-h` are generated from
// the sets (flags.go), so they cannot drift from what is parsed.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"memtrace/internal/safetext"
	"memtrace/store"

	"memtrace/engine"
)

// env is what every subcommand gets: streams, the database path and the
// context that is cancelled on Ctrl-C.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// dbPath is --db, wherever it was given; after parsing, the default
	// ($MEMTRACE_DB, else ./memtrace.db) when it was not. dbGiven says
	// whether it came from a flag or the environment (demo builds in a
	// temporary directory otherwise).
	dbPath  string
	dbGiven bool
	// embedder is --embedder: the embedder asked for; "" is the
	// database's own (admin_embedder.go).
	embedder string
}

// runFunc runs a command on its positional arguments, its flags parsed.
type runFunc func(e *env, args []string) error

// command is one subcommand, or a family of them (golden run, golden
// stress). Files are named by family: recall*, curate*, tiers*, golden,
// bench, capture*, admin*, inspect* (list, show), tui, demo, mcp, help.
type command struct {
	name    string // one word; a subcommand's full name is its family's and its own
	args    string // the positional arguments of the usage line, e.g. "TEXT"
	summary string
	// define registers the command's own flags on fs and returns the func
	// that runs it with them. nil for a family.
	define func(fs *flag.FlagSet) runFunc
	subs   []command // a family's subcommands
	dflt   string    // the subcommand a family runs when none is named (review: list)
}

func commands() []command {
	return []command{
		// Subcommands register here, one line each, in the order `memtrace help` lists them.
		{name: "tui", summary: "terminal UI on an existing database (what `memtrace` with no arguments runs)", define: cmdTUI},
		{name: "demo", summary: "build a fresh demo DB from testdata through the capture pipeline (at --db, else in a new temporary directory) and open the TUI on it", define: cmdDemo},
		{name: "ingest", args: "FILE.jsonl|-", summary: "capture pipeline; per-layer counts", define: cmdIngest},
		{name: "import", summary: "import conversations through the capture pipeline (idempotent), or read edited Markdown tiers back", subs: importCommands()},
		{name: "review", summary: "the queue of captures the judge held as needs_review: list, ask the judge again, or store/skip by hand (`memtrace review` alone: list)", subs: reviewCommands(), dflt: "list"},
		{name: "add", args: "TEXT", summary: "write one memory directly (curator)", define: cmdAdd},
		{name: "list", summary: "list memories, a page at a time", define: cmdList},
		{name: "show", args: "ID|key:K", summary: "one memory with its audit history", define: cmdShow},
		{name: "recall", args: "TEXT", summary: "recall for a query, read-only unless --commit-access", define: cmdRecall},
		{name: "compare", args: "TEXT", summary: "one query recalled read-only at two times: what is forgotten, rises, falls, is new", define: cmdCompare},
		{name: "forecast", args: "[ID|key:K]", summary: "what will be forgotten next, and when; or one memory's forecast", define: cmdForecast},
		{name: "golden", summary: "golden probe sets", subs: []command{
			{name: "run", args: "SET", summary: "run a golden set, diff against a baseline", define: goldenRun},
			{name: "stress", args: "SET", summary: "the set over its fixture inflated with distractors", define: goldenStress},
		}},
		{name: "experiment", args: "SET", summary: "the set's probes under two policies on the same data: per probe pass/fail under each, rank changes, drops gained or lost (drop_kind), aggregate figures", define: cmdExperiment},
		{name: "bench", summary: "benchmarks", subs: []command{
			{name: "locomo", args: "FILE", summary: "LoCoMo retrieval recall@k", define: benchLoCoMo},
			{name: "recall", summary: "recall latency vs the scan floor as the store grows", define: benchRecall},
			{name: "open", summary: "opening a database vs reading its rows", define: benchOpen},
			{name: "scale", summary: "a PostgreSQL server filled with many spaces beside SQLite: open, recall, 4-writer ingest, notification latency", define: benchScale},
		}},
		{name: "triage", summary: "judge every active memory of a type; proposals for the curator", define: cmdTriage},
		{name: "apply", args: "[FILE]", summary: "apply approved proposals (of FILE's verdicts, or --approved: all) in one verified, audited batch", define: cmdApply},
		{name: "approve", args: "[ID…]", summary: "apply proposals (the ids, or --all-pending) in one audited batch", define: cmdApprove},
		{name: "reject", args: "ID…", summary: "reject proposals in one batch (rollback reopens them)", define: cmdReject},
		{name: "proposals", summary: "list proposals waiting for the curator", define: cmdProposals},
		{name: "batches", summary: "audited batches and rejections, newest first: actor, what each did, whether it can be rolled back", define: cmdBatches},
		{name: "supersede", args: "OLD [NEW]", summary: "link by hand: NEW supersedes OLD (each an ID or key:K; a knowledge update); --unlink makes OLD current again; audited, undone by rollback", define: cmdSupersede},
		{name: "erase", args: "[ID|key:K …]", summary: "erase memories for good (curator): their text leaves every table, index and trace, a tombstone stays; asks twice, cannot be rolled back", define: cmdErase},
		{name: "policy", summary: "the memory policy this database runs with: show, set FILE (audited, rolled back like any batch), diff A B", subs: policyCommands()},
		{name: "rollback", args: "BATCH", summary: "undo a batch: says what it will do by kind and asks (--yes: don't ask; --force: a whole capture run)", define: cmdRollback},
		{name: "heartbeat", summary: "propose promotions, demotions, archiving, cap fixes; moves nothing", define: cmdHeartbeat},
		{name: "reflect", summary: "file a self-reflection record", define: cmdReflect},
		{name: "audit", summary: "how polluted a store is: noise by pattern, types, label prefixes, duplicates, what capture would not store", define: cmdAudit},
		{name: "cleanup", summary: "scan stored memories for noise; propose quarantine", define: cmdCleanup},
		{name: "export", summary: "export the tiers", subs: []command{
			{name: "md", args: "DIR", summary: "write the tiers as Markdown files", define: cmdExportMD},
		}},
		{name: "mcp", summary: "serve memory to an agent over MCP (stdio, or streamable HTTP on loopback with --http)", define: cmdMCP},
		{name: "judge", summary: "the Ollama judge", subs: []command{
			{name: "check", summary: "check the Ollama judge: host reachable, model present and able to chat, one chat with format and its latency, digest", define: cmdJudgeCheck},
		}},
		{name: "reembed", summary: "re-embed every memory (progress on stderr; resumable) and make that the database's embedder", define: cmdReembed},
		{name: "backup", args: "DIR", summary: "online SQLite backup + JSON dump of memories, each with .sha256 (on PostgreSQL: the dump, and the pg_dump command)", define: cmdBackup},
		{name: "copy", summary: "copy a whole memory space (audit, batches, proposals, captures …) between SQLite files and PostgreSQL spaces, verified by counts and a checksum; refuses a non-empty target", define: cmdCopy},
		{name: "spaces", summary: "the memory spaces (schemas) of the PostgreSQL server --db points at, with their counts; a SQLite file is one space", define: cmdSpaces},
		{name: "clock", args: "[TIME]", summary: "show, pin (TIME) or unpin (--unset) the database's clock (demo databases pin theirs)", define: cmdClock},
		{name: "version", summary: "version, commit and build date of this binary (also `memtrace --version`)", define: cmdVersion},
		{name: "help", args: "[" + strings.Join(helpTopicNames(), "|") + "|COMMAND [SUBCOMMAND]]", summary: "the commands, one command's every flag, or a topic: the decay math, the embedders, the heartbeat's rules, the trace JSON, the judge schemas, the policy schema, the relevance gate, the review queue, secrets and erasure, the recall stages, the time grammar, knowledge updates", define: cmdHelp},
	}
}

// usageError is returned for bad flags or arguments; run prints the usage.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// Run runs memtrace with args (without the program name) and returns the
// process exit code: 0 on success, 1 when the command failed, 2 for a usage
// error.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	defer startProfile(stderr)()
	return run(ctx, args, stdin, stdout, stderr)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The one terminal-safety boundary of every command's output: what
	// reaches stdout and stderr — memory text, project names, keys, a
	// server's error text, OTLP — leaves neutralised (safetext.Writer).
	// The TUI draws through Bubble Tea, not through these.
	out, errOut := safetext.NewWriter(stdout), safetext.NewWriter(stderr)
	defer out.Flush()
	defer errOut.Flush()
	e := &env{ctx: ctx, stdin: stdin, stdout: out, stderr: errOut}
	// Global flags before the command name (and --version, which is only
	// a flag of the program); the command's own flag set takes them after it.
	top := newFlagSet("memtrace")
	registerGlobalFlags(top, e)
	showVersion := top.Bool("version", false, "print the version and exit")
	err := top.Parse(args)
	args = top.Args()
	if err == nil && *showVersion {
		args = []string{"version"}
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "memtrace: %s\n", flagError(top, err))
		printUsage(stderr)
		return 2
	}
	if len(args) == 0 {
		args = []string{"tui"}
	}
	cmds := commands()
	c, ok := findCommand(cmds, args[0])
	if !ok {
		// A near miss gets its suggestion and one line, not the whole
		// command list.
		if hint := didYouMean(args[0], commandNames(cmds)); hint != "" {
			fmt.Fprintf(stderr, "memtrace: unknown command %q%s\n`memtrace help` lists every command\n", args[0], hint)
			return 2
		}
		fmt.Fprintf(stderr, "memtrace: unknown command %q\n", args[0])
		printUsage(stderr)
		return 2
	}
	name, rest := c.name, args[1:]
	for c.subs != nil {
		// Global flags may also come between a family and its subcommand
		// (`memtrace golden --db X run SET`).
		words, err := parseGlobal(e, "memtrace "+name, rest)
		if c.dflt != "" && ((err != nil && !errors.Is(err, flag.ErrHelp)) || (err == nil && len(words) == 0)) {
			// No subcommand named (`review`, `review --status all`): the
			// default one, with every argument.
			if err == nil {
				rest = words
			}
			sub, _ := findCommand(c.subs, c.dflt)
			c, name = sub, name+" "+sub.name
			break
		}
		rest = words
		switch {
		case errors.Is(err, flag.ErrHelp):
			printFamilyHelp(stdout, name, c)
			return 0
		case err != nil:
			fmt.Fprintf(stderr, "memtrace %s: %v\n", name, err)
			printFamilyHelp(stderr, name, c)
			return 2
		case len(rest) == 0:
			fmt.Fprintf(stderr, "memtrace %s: name a subcommand: %s\n", name, subNames(c))
			printFamilyHelp(stderr, name, c)
			return 2
		}
		sub, ok := findCommand(c.subs, rest[0])
		if !ok {
			fmt.Fprintf(stderr, "memtrace %s: unknown subcommand %q%s: use %s\n", name, rest[0], didYouMean(rest[0], commandNames(c.subs)), subNames(c))
			printFamilyHelp(stderr, name, c)
			return 2
		}
		c, name, rest = sub, name+" "+sub.name, rest[1:]
	}
	return runCommand(e, name, c, rest)
}

// runCommand parses the flags of c (its own and the global ones, before
// and after the positional arguments) and runs it.
func runCommand(e *env, name string, c command, args []string) int {
	fs := newFlagSet(name)
	registerGlobalFlags(fs, e)
	runIt := c.define(fs)
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printCommandHelp(e.stdout, name, c, fs)
		return 0
	}
	if err == nil {
		e.resolveDB()
		if store.IsKeywordDSN(e.dbPath) {
			err = store.ErrKeywordDSN // before any message could echo its password
		} else {
			err = runIt(e, pos)
		}
	}
	if err == nil {
		return 0
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(e.stderr, "memtrace %s: %s\n", name, err.Error())
		fmt.Fprintf(e.stderr, "usage: memtrace %s\n(`memtrace help %s` lists every flag)\n", synopsis(name, c, fs), name)
		return 2
	}
	fmt.Fprintf(e.stderr, "memtrace %s: %s\n", name, engine.ErrorMessage(err))
	return 1
}

// resolveDB fills in the default database path when --db was not given.
func (e *env) resolveDB() {
	if e.dbPath != "" {
		e.dbGiven = true
		return
	}
	if v := os.Getenv("MEMTRACE_DB"); v != "" {
		e.dbPath, e.dbGiven = v, true
		return
	}
	e.dbPath = "memtrace.db"
}

func findCommand(cmds []command, name string) (command, bool) {
	for _, c := range cmds {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// subNames is "run or stress".
func subNames(c command) string {
	s := ""
	for i, sub := range c.subs {
		switch {
		case i == 0:
		case i == len(c.subs)-1:
			s += " or "
		default:
			s += ", "
		}
		s += sub.name
	}
	return s
}
