package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"memtrace/engine"
)

// newFlagSet is a command's flag set. The flag package prints nothing
// itself: a bad flag comes back as an error that runCommand prints with
// the usage line, and -h / --help as flag.ErrHelp, which prints the full
// help (printCommandHelp) and exits 0.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// registerGlobalFlags registers the flags every command takes on fs, so
// that they work before the command name (on the top-level set) and after
// it (on the command's own) alike — litestream's registerConfigFlag.
func registerGlobalFlags(fs *flag.FlagSet, e *env) {
	fs.Var(pathFlag{&e.dbPath}, "db", "database `PATH`, or postgres://…?search_path=SPACE for a space on PostgreSQL (default $MEMTRACE_DB, else ./memtrace.db)")
	fs.Var(embedderFlag{&e.embedder}, "embedder", embedderHelp)
}

// pathFlag sets *p without resetting it when registered, so that a --db
// given before the command name survives the command's own flag set.
type pathFlag struct{ p *string }

func (f pathFlag) String() string { return "" }

func (f pathFlag) Set(v string) error {
	if v == "" {
		return errors.New("empty path")
	}
	*f.p = v
	return nil
}

// globalFlag reports whether name is one of registerGlobalFlags' flags.
func globalFlag(name string) bool {
	fs := newFlagSet("global")
	registerGlobalFlags(fs, &env{})
	return fs.Lookup(name) != nil
}

// parseGlobal parses the global flags at the head of args (up to the first
// word that is not a flag) and returns the rest.
func parseGlobal(e *env, name string, args []string) ([]string, error) {
	fs := newFlagSet(name)
	registerGlobalFlags(fs, e)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errors.New(flagError(fs, err))
	}
	return fs.Args(), nil
}

// parseArgs parses flags that may come before or after the positional
// arguments (`backup DIR --json` as well as `backup --json DIR`) and returns
// the positional arguments. A lone "--" ends the flags. -h and --help
// return flag.ErrHelp; any other flag error is a usageError.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{flagError(fs, err)}
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// flagSetOf is c's flag set as runCommand builds it, for help and usage.
func flagSetOf(name string, c command) *flag.FlagSet {
	fs := newFlagSet(name)
	registerGlobalFlags(fs, &env{})
	c.define(fs)
	return fs
}

// requiredMark starts the help string of a flag the command cannot do
// without; the usage line shows it without brackets.
const requiredMark = "(required) "

// synopsis is the usage line of a command, from its flag set: the name,
// the positional arguments, then every flag of its own (the global ones
// are in `memtrace help`'s first line and in each command's -h).
func synopsis(name string, c command, fs *flag.FlagSet) string {
	parts := []string{name}
	if c.args != "" {
		parts = append(parts, c.args)
	}
	fs.VisitAll(func(f *flag.Flag) {
		if globalFlag(f.Name) {
			return
		}
		s := "--" + f.Name
		if ph := placeholder(f); ph != "" {
			s += " " + ph
		}
		if !strings.HasPrefix(f.Usage, requiredMark) {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	})
	return strings.Join(parts, " ")
}

// placeholder is what a flag's value is called in the usage: the name in
// backquotes in its help string (flag.UnquoteUsage), else one derived from
// its type; "" for a boolean flag.
func placeholder(f *flag.Flag) string {
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return ""
	}
	name, _ := flag.UnquoteUsage(f)
	if strings.Contains(f.Usage, "`") {
		return name
	}
	switch name {
	case "int", "uint":
		return "N"
	case "float":
		return "X"
	case "duration":
		return "DURATION"
	}
	return strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
}

// helpText is a flag's help string as printed, with its default.
func helpText(f *flag.Flag) string {
	usage := f.Usage
	if placeholder(f) != "" {
		_, usage = flag.UnquoteUsage(f)
	}
	usage = strings.TrimPrefix(usage, requiredMark)
	if strings.HasPrefix(f.Usage, requiredMark) {
		usage = "required: " + usage
	}
	switch f.DefValue {
	case "", "false", "0", "0s":
	default:
		if g, ok := f.Value.(flag.Getter); ok && isString(g.Get()) {
			usage += fmt.Sprintf(" (default %q)", f.DefValue)
		} else {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
	}
	return usage
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// printCommandHelp is `memtrace CMD -h` and `memtrace help CMD`: the usage
// line, the summary and every flag with its help string.
func printCommandHelp(w io.Writer, name string, c command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: memtrace %s\n\n%s\n", synopsis(name, c, fs), c.summary)
	var own, global []*flag.Flag
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		if globalFlag(f.Name) {
			global = append(global, f)
		} else {
			own = append(own, f)
		}
		width = max(width, len(flagTitle(f)))
	})
	section := func(title string, flags []*flag.Flag) {
		if len(flags) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, f := range flags {
			fmt.Fprintf(w, "  %-*s  %s\n", width, flagTitle(f), helpText(f))
		}
	}
	section("flags:", own)
	section("global flags (before or after the command name):", global)
	if hasTimeFlag(own) {
		fmt.Fprintf(w, "\ntimes: %s\n", engine.TimeGrammar)
	}
	if text, ok := helpTopics()[name]; ok {
		fmt.Fprintf(w, "\n%s", text)
	}
}

// hasTimeFlag reports whether a command takes a time (--at, --at-a …).
func hasTimeFlag(flags []*flag.Flag) bool {
	for _, f := range flags {
		if strings.HasPrefix(f.Name, "at") {
			return true
		}
	}
	return false
}

func flagTitle(f *flag.Flag) string {
	s := "--" + f.Name
	if ph := placeholder(f); ph != "" {
		s += " " + ph
	}
	return s
}

// printFamilyHelp is `memtrace golden -h` and `memtrace help golden`: the
// usage line of each subcommand.
func printFamilyHelp(w io.Writer, name string, c command) {
	names := make([]string, len(c.subs))
	for i, sub := range c.subs {
		names[i] = sub.name
	}
	fmt.Fprintf(w, "usage: memtrace %s %s …\n\n%s\n\n", name, strings.Join(names, "|"), c.summary)
	for _, sub := range c.subs {
		full := name + " " + sub.name
		fmt.Fprintf(w, "  %s\n      %s\n", synopsis(full, sub, flagSetOf(full, sub)), sub.summary)
	}
	fmt.Fprintf(w, "\n`memtrace help %s SUBCOMMAND` (or `memtrace %s SUBCOMMAND -h`) lists every flag of one\n", name, name)
}

// eachCommand calls fn for every command that runs, subcommands by their
// full name ("golden run"), in the order `memtrace help` lists them.
func eachCommand(fn func(name string, c command)) {
	var walk func(prefix string, cmds []command)
	walk = func(prefix string, cmds []command) {
		for _, c := range cmds {
			name := strings.TrimSpace(prefix + " " + c.name)
			if c.subs != nil {
				walk(name, c.subs)
				continue
			}
			fn(name, c)
		}
	}
	walk("", commands())
}

// printUsage is `memtrace help`: every command with its usage line.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: memtrace [--db PATH] [--embedder hashed|ollama:MODEL] COMMAND [ARGS] | memtrace --version   (--db and --embedder also work after the command name)")
	fmt.Fprintln(w)
	var b strings.Builder
	eachCommand(func(name string, c command) {
		fmt.Fprintf(&b, "  %s\n      %s\n", synopsis(name, c, flagSetOf(name, c)), c.summary)
	})
	fmt.Fprint(w, b.String())
	fmt.Fprintf(w, "\ntimes (every --at, the golden YAML's at, the TUI's @): %s\n", engine.TimeGrammar)
	fmt.Fprintln(w, "`memtrace help COMMAND` (or `memtrace COMMAND -h`) lists every flag of a command")
}

// enumFlag is a string flag that takes only one of its values: a value
// outside them is a usage error at parse time that lists them, so no
// command runs on a word it would match nothing with (`proposals
// --status bogus` printing "no proposals").
type enumFlag struct {
	p       *string
	allowed []string
}

// enumString registers an enumFlag on fs with default def ("" for none,
// which is always accepted as unset) and returns its value.
func enumString(fs *flag.FlagSet, name, def, usage string, allowed ...string) *string {
	p := new(string)
	*p = def
	fs.Var(enumFlag{p, allowed}, name, usage)
	return p
}

func (f enumFlag) String() string {
	if f.p == nil {
		return ""
	}
	return *f.p
}

func (f enumFlag) Set(v string) error {
	if slices.Contains(f.allowed, v) {
		*f.p = v
		return nil
	}
	msg := fmt.Sprintf("%q is not one of %s", v, strings.Join(f.allowed, ", "))
	if s := suggest(v, f.allowed); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return errors.New(msg)
}

// givenFlag names the first of names given on fs's command line ("--name"),
// or "": for a command to refuse a flag that means nothing beside the
// others given, instead of ignoring it.
func givenFlag(fs *flag.FlagSet, names ...string) string {
	given := ""
	fs.Visit(func(f *flag.Flag) {
		for _, n := range names {
			if given == "" && f.Name == n {
				given = "--" + n
			}
		}
	})
	return given
}
