package cli

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"memtrace/engine"
)

// Every command and subcommand answers -h with its full help — the usage
// line, then every flag of its flag set with its help string — and exits 0,
// whether --db comes before or after the command name; `help CMD` prints
// the same.
func TestEveryCommandHelp(t *testing.T) {
	n := 0
	eachCommand(func(name string, c command) {
		n++
		fs := flagSetOf(name, c)
		words := strings.Fields(name)
		after, afterErr, code := runCLI(t, append(append(words, "--db", "x.db"), "-h")...)
		if code != 0 {
			t.Errorf("%s --db x.db -h: exit %d: %s", name, code, afterErr)
			return
		}
		if !strings.HasPrefix(after, "usage: memtrace "+synopsis(name, c, fs)+"\n") {
			t.Errorf("%s -h does not start with its usage line:\n%s", name, after)
		}
		fs.VisitAll(func(f *flag.Flag) {
			line := flagTitle(f)
			if !strings.Contains(after, "  "+line+" ") || !strings.Contains(after, helpText(f)+"\n") {
				t.Errorf("%s -h lacks --%s and its help %q:\n%s", name, f.Name, helpText(f), after)
			}
			if !globalFlag(f.Name) && !strings.Contains(synopsis(name, c, fs), "--"+f.Name) {
				t.Errorf("usage line of %s lacks --%s", name, f.Name)
			}
		})
		for _, args := range [][]string{
			append([]string{"--db", "x.db"}, append(words, "-h")...),
			append(words, "--help"),
			append([]string{"help"}, words...),
		} {
			out, stderr, code := runCLI(t, args...)
			if code != 0 || out != after {
				t.Errorf("%v: exit %d (%s), output differs from `%s --db x.db -h`:\n%s", args, code, stderr, name, out)
			}
		}
	})
	if n < 30 {
		t.Errorf("only %d commands walked", n)
	}
	// A family lists its subcommands, and `memtrace help` lists every one.
	list, _, code := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	if !strings.Contains(list, engine.TimeGrammar) {
		t.Errorf("memtrace help does not state the time grammar:\n%s", list)
	}
	if out, _, code := runCLI(t, "help", "time"); code != 0 || !strings.Contains(out, "+1d12h") {
		t.Errorf("help time: exit %d\n%s", code, out)
	}
	eachCommand(func(name string, c command) {
		if !strings.Contains(list, "  "+synopsis(name, c, flagSetOf(name, c))+"\n") {
			t.Errorf("memtrace help lacks %s", name)
		}
	})
	for _, fam := range []string{"golden", "bench", "judge", "export", "import"} {
		out, stderr, code := runCLI(t, fam, "-h")
		c, _ := findCommand(commands(), fam)
		if code != 0 || !strings.HasPrefix(out, "usage: memtrace "+fam+" "+c.subs[0].name) {
			t.Errorf("%s -h: exit %d %s\n%s", fam, code, stderr, out)
		}
		for _, sub := range c.subs {
			if !strings.Contains(out, "  "+fam+" "+sub.name) {
				t.Errorf("%s -h lacks %s:\n%s", fam, sub.name, out)
			}
		}
	}
	if _, stderr, code := runCLI(t, "recall", "--nope"); code != 2 || !strings.Contains(stderr, "usage: memtrace recall TEXT") {
		t.Errorf("a bad flag: exit %d, %q", code, stderr)
	}
}

// README's command table lists every command and subcommand with the
// usage line its flag set makes.
func TestREADMEListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	eachCommand(func(name string, c command) {
		line := "`memtrace " + strings.ReplaceAll(synopsis(name, c, flagSetOf(name, c)), "|", `\|`) + "`"
		if !strings.Contains(readme, line) {
			t.Errorf("README.md lacks the usage of %s: %s", name, line)
		}
	})
}

// The README's list of help topics (`memtrace help decay|embedder|…`) is
// the binary's, and every topic it names answers.
func TestREADMEListsEveryHelpTopic(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	topics := strings.Join(helpTopicNames(), "|")
	if !strings.Contains(string(b), "`memtrace help "+topics+"`") {
		t.Errorf("README.md lacks the help topics as the binary has them: `memtrace help %s`", topics)
	}
	for _, name := range helpTopicNames() {
		if out, stderr, code := runCLI(t, "help", name); code != 0 || out == "" {
			t.Errorf("help %s: exit %d: %s", name, code, stderr)
		}
	}
}

// Every top-level key a command's --json prints is named in the README's
// JSON contract of that command (`CMD --json` → `{…}`): a key added to the
// output is added to the contract.
func TestREADMEJSONContractsNameEveryKey(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	db := demoDB(t)
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	for _, c := range []struct {
		contract string   // the README's name for it: "CMD --json"
		args     []string // after --db
		db       string
	}{
		{"ingest --json", []string{"ingest", "testdata/demo.jsonl", "--json"}, fresh},
		{"list --json", []string{"list", "--limit", "1", "--json"}, db},
		{"show --json", []string{"show", "1", "--json"}, db},
		{"recall --json", []string{"recall", "충주 사과", "--json"}, db},
		{"compare --json", []string{"compare", "충주 사과", "--json"}, db},
		{"golden run --json", []string{"golden", "run", demoSet, "--json"}, db},
		{"bench recall --json", []string{"bench", "recall", "--n", "50", "--queries", "2", "--json"}, db},
		{"bench open --json", []string{"bench", "open", "--n", "50", "--opens", "1", "--json"}, db},
		{"review list --json", []string{"review", "list", "--status", "all", "--json"}, db},
		{"audit --json", []string{"audit", "--json"}, db},
		{"batches --json", []string{"batches", "--json"}, db},
		{"heartbeat --json", []string{"heartbeat", "--dry-run", "--json"}, db},
		{"version --json", []string{"version", "--json"}, db},
		{"reembed --json", []string{"reembed", "--json"}, db},
		{"approve --json", []string{"approve", "1", "--json"}, db},
		{"rollback --json", []string{"rollback", "approve-20260721T090000Z-2", "--yes", "--json"}, db},
	} {
		out := mustRunCLI(t, append([]string{"--db", c.db}, c.args...)...) // first: a later case may need what it wrote
		i := strings.Index(readme, "`"+c.contract+"` → `{")
		if i < 0 {
			t.Errorf("README.md has no contract `%s` → `{…}`", c.contract)
			continue
		}
		start := i + len("`"+c.contract+"` → `")
		contract := readme[start : start+strings.Index(readme[start:], "`")]
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%s: not a JSON object: %v", c.contract, err)
			continue
		}
		for key := range doc {
			if !strings.Contains(contract, `"`+key+`"`) {
				t.Errorf("README's `%s` contract lacks %q: %s", c.contract, key, contract)
			}
		}
	}
}

// globalCase is one command run with --db after its name and with --db
// before it, each on its own database.
type globalCase struct {
	args []string // after the command name; {dir} is the database's directory
	db   string   // "demo": a copy of the demo database; "new": none yet (the command makes it); "missing": none, and it must stay so
	// setup runs first, on the same database ({dir} as in args).
	setup [][]string
}

// globalCases is a real invocation of every command (its arguments after
// the name), on the database each needs.
func globalCases(t *testing.T) map[string]globalCase {
	srv := ollamaRecordings(t)
	t.Setenv("OLLAMA_HOST", srv.URL)
	noFixture := pinnedSet(t, "+1w")
	locomo := filepath.Join(t.TempDir(), "locomo.json")
	if err := os.WriteFile(locomo, []byte(`[{"sample_id":"conv-t","conversation":{"speaker_a":"Caroline","speaker_b":"Melanie",
 "session_1_date_time":"1:56 pm on 8 May, 2023",
 "session_1":[{"speaker":"Caroline","dia_id":"D1:1","text":"I went to a LGBTQ support group yesterday and it was so powerful."}]}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	stored := filepath.Join(t.TempDir(), "memories.jsonl")
	if err := os.WriteFile(stored, []byte(`{"id":"a","text":"I keep my passport in the blue folder."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(pol, []byte("forgetting:\n  half_life_episode: 7d\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]globalCase{
		"tui":                {db: "missing"},
		"policy show":        {args: []string{"--json"}, db: "demo"},
		"policy set":         {args: []string{pol, "--dry-run"}, db: "demo"},
		"policy diff":        {args: []string{pol, "db", "--json"}, db: "demo"},
		"experiment":         {args: []string{noFixture, "--policy", pol, "--at", "+1w", "--json"}, db: "demo"},
		"demo":               {args: []string{"--no-tui"}, db: "new"},
		"ingest":             {args: []string{"testdata/demo.jsonl", "--json"}, db: "new"},
		"import md":          {args: []string{"{dir}/md", "--json"}, db: "demo", setup: [][]string{{"export", "md", "{dir}/md"}}},
		"import jsonl":       {args: []string{"testdata/demo.jsonl", "--json"}, db: "new"},
		"import claude-code": {args: []string{"testdata/claude-code", "--json"}, db: "new"},
		"import locomo":      {args: []string{locomo}, db: "new"},
		"import memories":    {args: []string{stored, "--json"}, db: "new"},
		"review list":        {args: []string{"--status", "all", "--json"}, db: "demo"},
		"review retry":       {args: []string{"--all"}, db: "demo"}, // a usage error: no --judge
		"review store":       {args: []string{"999"}, db: "demo"},
		"review skip":        {args: []string{"999", "--reason", "not a memory"}, db: "demo"},
		"batches":            {args: []string{"--json"}, db: "demo"},
		"audit":              {args: []string{"--json"}, db: "demo"},
		"version":            {args: []string{"--json"}, db: "demo"},
		"add":                {args: []string{"--kind", "fact", "--type", "preference", "--importance", "0.7", "I take my coffee black", "--json"}, db: "demo"},
		"list":               {args: []string{"--type", "milestone"}, db: "demo"},
		"show":               {args: []string{"key:m0001", "--json"}, db: "demo"},
		"recall":             {args: []string{"충주 사과", "--trace", "--at", "+1w"}, db: "demo"},
		"compare":            {args: []string{"충주 사과", "--at-b", "+30d"}, db: "demo"},
		"forecast":           {args: []string{"--n", "5"}, db: "demo"},
		"golden run":         {args: []string{noFixture, "--at", "+1w", "--json"}, db: "demo"},
		"golden stress":      {args: []string{noFixture}, db: "demo"}, // a usage error: it needs a fixture
		"bench locomo":       {args: []string{"{dir}/none.json"}, db: "demo"},
		"bench recall":       {args: []string{"--n", "0"}, db: "demo"},
		"bench open":         {args: []string{"--opens", "0"}, db: "demo"},
		"triage":             {args: []string{"--type", "milestone", "--model", "llama9:70b"}, db: "demo"},
		"apply":              {args: []string{"--approved", "--json"}, db: "demo"},
		"approve":            {args: []string{"--all-pending", "--json"}, db: "demo"},
		"reject":             {args: []string{"1", "--reason", "not now"}, db: "demo"},
		"proposals":          {args: []string{"--json"}, db: "demo"},
		"rollback":           {args: []string{"capture:x"}, db: "missing"},
		"supersede":          {args: []string{"1", "2", "--json"}, db: "demo"},
		"erase":              {args: []string{"key:m0001", "--dry-run"}, db: "demo"},
		"heartbeat":          {args: []string{"--at", "+1w", "--dry-run", "--json"}, db: "demo"},
		"reflect":            {args: []string{"--intended", "one pass", "--actual", "two passes"}, db: "demo"},
		"cleanup":            {args: []string{"--dry-run", "--json"}, db: "demo"},
		"export md":          {args: []string{"{dir}/md", "--json"}, db: "demo"},
		"mcp":                {db: "demo"},
		"judge check":        {args: []string{"--model", "qwen2.5:0.5b", "--json"}, db: "demo"},
		"reembed":            {args: []string{"--embedder", "hashed", "--json"}, db: "demo"},
		"backup":             {args: []string{"{dir}/bk", "--json"}, db: "demo"},
		"clock":              {db: "demo"},
		"spaces":             {args: []string{"--json"}, db: "demo"},
		"bench scale":        {args: []string{"--json"}, db: "demo"}, // a SQLite --db: the usage error
		"copy":               {args: []string{"--from", "{dir}/m.db", "--to", "{dir}/copy.db", "--json"}, db: "demo"},
		"help":               {args: []string{"recall"}, db: "demo"},
	}
	return cases
}

// `memtrace CMD --db X …` and `memtrace --db X CMD …` behave the same —
// same output, same exit code — for every command and subcommand, on real
// databases (paths in the output normalised).
func TestGlobalFlagsBeforeOrAfter(t *testing.T) {
	demo := demoDB(t)
	cases := globalCases(t)
	eachCommand(func(name string, _ command) {
		c, ok := cases[name]
		if !ok {
			t.Errorf("no case for %s: add one to TestGlobalFlagsBeforeOrAfter", name)
			return
		}
		words := strings.Fields(name)
		type result struct {
			out, stderr string
			code        int
		}
		var results [2]result
		for i := range results {
			dir := t.TempDir()
			db := filepath.Join(dir, "m.db")
			if c.db == "demo" {
				copyDB(t, demo, db)
			}
			fill := func(args []string) []string {
				out := make([]string, len(args))
				for j, a := range args {
					out[j] = strings.ReplaceAll(a, "{dir}", dir)
				}
				return out
			}
			for _, s := range c.setup {
				if _, stderr, code := runCLI(t, append([]string{"--db", db}, fill(s)...)...); code != 0 {
					t.Fatalf("%s setup %v: exit %d %s", name, s, code, stderr)
				}
			}
			var args []string
			if i == 0 {
				args = append(append(append([]string{}, words...), "--db", db), fill(c.args)...)
			} else {
				args = append(append([]string{"--db", db}, words...), fill(c.args)...)
			}
			out, stderr, code := runCLI(t, args...)
			results[i] = result{normalise(out, dir), normalise(stderr, dir), code}
			if c.db == "missing" {
				if _, err := os.Stat(db); !os.IsNotExist(err) {
					t.Errorf("%v created %s (stat: %v); a command that needs a database must not make one", args, db, err)
				}
			}
		}
		a, b := results[0], results[1]
		if a != b {
			t.Errorf("%s: --db after and before the name differ:\nafter:  exit %d\n%s%s\nbefore: exit %d\n%s%s", name, a.code, a.out, a.stderr, b.code, b.out, b.stderr)
		}
		if c.db == "missing" && !strings.Contains(a.stderr, "no database at DIR/m.db; build one with `memtrace demo --no-tui --db DIR/m.db`") {
			t.Errorf("%s on a missing database: %q", name, a.stderr)
		}
	})
}

// copyDB copies a closed database file (and its WAL, if any).
func copyDB(t *testing.T, from, to string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal"} {
		src, err := os.Open(from + suffix)
		if os.IsNotExist(err) && suffix != "" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		dst, err := os.Create(to + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		src.Close()
		if err := dst.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// Every command that works on an existing database, given one that is not
// there, says how to make one and creates nothing (rollback and triage used
// to open the store directly and leave an empty database behind). import
// md is not one of them: like ingest it creates the database, so the tiers
// can be restored onto a new machine (TestImportMarkdownIsCuratedAndIdempotent);
// with no tier files it creates nothing (below).
func TestMissingDatabaseCreatesNothing(t *testing.T) {
	cases := globalCases(t)
	{
		dir := t.TempDir()
		db := filepath.Join(dir, "none.db")
		os.MkdirAll(filepath.Join(dir, "md"), 0o755)
		if _, stderr, code := runCLI(t, "import", "md", "--db", db, filepath.Join(dir, "md")); code != 1 || !strings.Contains(stderr, "no tier files") {
			t.Errorf("import md of an empty directory: exit %d, %q", code, stderr)
		}
		if _, err := os.Stat(db); err == nil {
			t.Error("import md of an empty directory created the database")
		}
	}
	for _, name := range []string{"tui", "list", "show", "recall", "compare", "forecast", "golden run",
		"triage", "apply", "approve", "reject", "proposals", "rollback", "heartbeat", "reflect", "cleanup", "export md",
		"backup", "clock", "spaces"} {
		dir := t.TempDir()
		db := filepath.Join(dir, "none.db")
		var args []string
		for _, a := range cases[name].args {
			args = append(args, strings.ReplaceAll(a, "{dir}", dir))
		}
		_, stderr, code := runCLI(t, append(append(strings.Fields(name), "--db", db), args...)...)
		if want := "memtrace " + name + ": " + engine.ErrorMessage(missingDatabase(db)) + "\n"; code != 1 || stderr != want {
			t.Errorf("%s on a missing database: exit %d, %q; want exit 1, %q", name, code, stderr, want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("%s on a missing database left %s behind", name, entries[0].Name())
		}
	}
}

// timings and batch ids are the values that differ from run to run
// (latency_ms …; a batch id is unique forever).
var (
	timings  = regexp.MustCompile(`"(\w+_ms)": [0-9.e+-]+`)
	batchIDs = regexp.MustCompile(`"batch": "[^"]*"`)
	// A batch id in text (KIND-YYYYMMDDTHHMMSSZ-N) changes with the second
	// the command ran in.
	textBatchIDs = regexp.MustCompile(`\b[a-z]+-\d{8}T\d{6}Z-\d+\b`)
)

// normalise makes two runs' output comparable: the database's directory
// is DIR, every *_ms timing 0, every batch id (in JSON and in text) BATCH.
func normalise(s, dir string) string {
	s = timings.ReplaceAllString(strings.ReplaceAll(s, dir, "DIR"), `"$1": 0`)
	s = batchIDs.ReplaceAllString(s, `"batch": "BATCH"`)
	return textBatchIDs.ReplaceAllString(s, "BATCH")
}

// A family with a default subcommand runs it when none is named: `memtrace
// review` is `memtrace review list`, with or without flags.
func TestFamilyDefaultSubcommand(t *testing.T) {
	db := demoDB(t)
	want, _, code := runCLI(t, "--db", db, "review", "list", "--status", "all", "--json")
	if code != 0 {
		t.Fatalf("review list: exit %d", code)
	}
	for _, args := range [][]string{
		{"--db", db, "review", "--status", "all", "--json"},
		{"review", "--db", db, "--status", "all", "--json"},
	} {
		if out, stderr, code := runCLI(t, args...); code != 0 || out != want {
			t.Errorf("%v: exit %d %s\n%s\nwant\n%s", args, code, stderr, out, want)
		}
	}
}
