// Package cli is memtrace's command line: the subcommands, their flags and
// the one path by which each opens the database and the engine. main wires
// it to the process (signals, streams, exit code); everything else is here.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"memtrace/engine"
)

// env is what every subcommand gets: streams, the database path and the
// context that is cancelled on Ctrl-C.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	dbPath string
}

// command is one subcommand. Files are named by family: recall*, curate*,
// tiers*, golden, bench, capture*, admin*, inspect* (list, show), tui, demo,
// mcp, help.
type command struct {
	name    string
	usage   string
	summary string
	run     func(e *env, args []string) error
}

func commands() []command {
	return []command{
		// Subcommands register here, one line each, in the order `memtrace help` lists them.
		{"tui", "tui [--db PATH]", "terminal UI on an existing database (what `memtrace` with no arguments runs)", cmdTUI},
		{"demo", "demo [--no-tui] [--db PATH]", "build a fresh demo DB from testdata through the capture pipeline and open the TUI on it", cmdDemo},
		{"ingest", "ingest FILE.jsonl|- [--json] [--batch N] [--judge MODEL [--detail high|medium|low] [--judge-cache FILE]]", "capture pipeline; per-layer counts", cmdIngest},
		{"import", "import md|jsonl|claude-code|locomo PATH [--json] | import memories PATH [--from jsonl|chroma|mem0|memory-files] [--key-prefix P] [--json]", "import conversations through the capture pipeline, or an agent's memory store as it is; idempotent", cmdImport},
		{"add", "add --kind K --type T --importance X [--key K] [--scope S] TEXT", "write one memory directly (curator)", cmdAdd},
		{"list", "list [--status S] [--type T] [--kind K] [--tier T] [--text X] [--json]", "list memories", cmdList},
		{"show", "show ID|key:K [--json]", "one memory with its audit history", cmdShow},
		{"recall", "recall TEXT [--at +30d|-2h|RFC3339] [--session S] [--project P] [--k N] [--budget N] [--trace|--json] [--commit-access] [--otel FILE]", "recall for a query, read-only unless --commit-access", cmdRecall},
		{"compare", "compare TEXT [--at-a now] [--at-b +90d] [--session S] [--project P] [--k N] [--budget N] [--json] [--otel FILE]", "one query recalled read-only at two times: what is forgotten, rises, falls, is new", cmdCompare},
		{"forecast", "forecast [ID|key:K] [--at T] [--n 20] [--json]", "what will be forgotten next, and when; or one memory's forecast", cmdForecast},
		{"golden", "golden run SET [--baseline RUN.json] [--save RUN.json] [--json] [--fail-on-regression] [--at T] | golden stress SET --inflate 10[,100] [--json]", "golden probe sets: run, diff against a baseline, stress", cmdGolden},
		{"bench", "bench locomo FILE [--k 5,10,25,50] [--json] [--limit-conversations N] | bench recall [--n 10000,100000] [--json] | bench open [--n 10000,100000] [--opens 5] [--keep DIR] [--json]", "LoCoMo retrieval recall@k; recall latency vs the scan floor; opening a database vs reading its rows", cmdBench},
		{"triage", "triage --type T [--model M] [--sample N] [--verdicts FILE] [--json]", "judge every active memory of a type; proposals for the curator", cmdTriage},
		{"apply", "apply FILE|--approved [--json]", "apply approved proposals in one verified, audited batch", cmdApply},
		{"approve", "approve ID…|--all-pending [--kind K] [--wording TEXT] [--json]", "apply proposals in one audited batch", cmdApprove},
		{"reject", "reject ID… [--reason TEXT]", "reject proposals", cmdReject},
		{"proposals", "proposals [--status pending|all|…] [--kind K] [--json]", "list proposals waiting for the curator", cmdProposals},
		{"batches", "batches [--limit N] [--json]", "audited batches, newest first: actor, what each did, whether it can be rolled back", cmdBatches},
		{"rollback", "rollback BATCH [--yes [--force]] [--dry-run] [--json]", "undo a batch: says what it will do by kind and asks (--yes: don't ask; --force: a whole capture run)", cmdRollback},
		{"heartbeat", "heartbeat [--every 4h] [--at +Nd|RFC3339] [--dry-run] [--review [--model M]] [--json]", "propose promotions, demotions, archiving, cap fixes; moves nothing", cmdHeartbeat},
		{"reflect", "reflect --intended TEXT --actual TEXT [--lesson TEXT] [--session S]", "file a self-reflection record", cmdReflect},
		{"audit", "audit [--json]", "how polluted a store is: noise by pattern, types, label prefixes, duplicates, what capture would not store", cmdAudit},
		{"cleanup", "cleanup [--dry-run] [--json]", "scan stored memories for noise; propose quarantine", cmdCleanup},
		{"export", "export md DIR [--json]", "write the tiers as Markdown files", cmdExport},
		{"mcp", "mcp [--db PATH] [--keep-traces N] [--judge MODEL]", "serve memory to an agent over MCP (stdio)", cmdMCP},
		{"judge", "judge check [--model M] [--timeout 30s] [--json]", "check the Ollama judge: host reachable, model present, digest", cmdJudge},
		{"backup", "backup DIR [--json]", "online SQLite backup + JSON dump of memories, each with .sha256", cmdBackup},
		{"clock", "clock [TIME|--unset]", "show, pin or unpin the database's clock (demo databases pin theirs)", cmdClock},
		{"version", "version [--json]", "version, commit and build date of this binary (also `memtrace --version`)", cmdVersion},
		{"help", "help [decay|stages|json|COMMAND]", "commands, the decay math, the recall stages, the trace JSON", cmdHelp},
	}
}

// usageError is returned for bad flags or arguments; run prints the usage.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// Run runs memtrace with args (without the program name) and returns the
// process exit code: 0 on success, 1 when the command failed, 2 for a usage
// error.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(ctx, args, stdin, stdout, stderr)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	global := flag.NewFlagSet("memtrace", flag.ContinueOnError)
	global.SetOutput(io.Discard)
	global.StringVar(&e.dbPath, "db", "", "database file (default $MEMTRACE_DB or ./memtrace.db)")
	showVersion := global.Bool("version", false, "print the version and exit")
	if err := global.Parse(args); err != nil {
		fmt.Fprintf(stderr, "memtrace: %v\n", err)
		printUsage(stderr)
		return 2
	}
	args = global.Args()
	if *showVersion {
		args = []string{"version"}
	}
	if e.dbPath == "" {
		e.dbPath = os.Getenv("MEMTRACE_DB")
	}
	if e.dbPath == "" {
		e.dbPath = "memtrace.db"
	}
	if len(args) == 0 {
		args = []string{"tui"}
	}
	name := args[0]
	if name == "-h" || name == "--help" {
		name = "help"
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		err := c.run(e, args[1:])
		if err == nil {
			return 0
		}
		var ue usageError
		if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
			if ue.msg != "" {
				fmt.Fprintf(stderr, "memtrace %s: %s\n", c.name, ue.msg)
			}
			fmt.Fprintf(stderr, "usage: memtrace %s\n", c.usage)
			return 2
		}
		fmt.Fprintf(stderr, "memtrace %s: %s\n", c.name, engine.ErrorMessage(err))
		return 1
	}
	fmt.Fprintf(stderr, "memtrace: unknown command %q\n", name)
	printUsage(stderr)
	return 2
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: memtrace [--db PATH] COMMAND [ARGS] | memtrace --version")
	fmt.Fprintln(w)
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %s\n      %s\n", c.usage, c.summary)
	}
	fmt.Fprint(w, b.String())
}
