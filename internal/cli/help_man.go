package cli

import (
	"fmt"
	"io"
	"strings"
)

// WriteManPage writes memtrace(1) in roff: the commands and the help topics
// exactly as `memtrace help` prints them, so the man page a package installs
// never says something the binary does not. version and date go into the
// page's title line ("v0.3.0", "2026-12-01").
func WriteManPage(w io.Writer, version, date string) error {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH MEMTRACE 1 %q %q \"memtrace manual\"\n", date, "memtrace "+version)
	b.WriteString(".SH NAME\nmemtrace \\- long\\-term memory engine for AI agents, inside a terminal UI\n")
	b.WriteString(".SH SYNOPSIS\n.B memtrace\n[\\fB\\-\\-db\\fR \\fIPATH\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n.br\n.B memtrace \\-\\-version\n")
	b.WriteString(".SH DESCRIPTION\n" + roffText(manDescription))
	b.WriteString(".SH OPTIONS\n")
	b.WriteString(".TP\n.BI \\-\\-db \" PATH\"\n" + roffText("The database file, for every command, or a PostgreSQL DSN (postgres://USER@HOST/DB?search_path=SPACE) that opens one memory space on a server. Default: $MEMTRACE_DB, else ./memtrace.db."))
	b.WriteString(".TP\n.BI \\-\\-embedder \" E\"\n" + roffText("The embedder of the database's vectors: hashed (offline, the default) or ollama:MODEL. Fixed per database; memtrace reembed changes it (memtrace help embedder)."))
	b.WriteString(".TP\n.B \\-\\-version\n" + roffText("Print the version, commit and build date, as `memtrace version` does."))
	b.WriteString(".SH COMMANDS\n")
	eachCommand(func(name string, c command) {
		b.WriteString(".TP\n.B\n" + roffText("memtrace "+synopsis(name, c, flagSetOf(name, c))))
		b.WriteString(roffText(c.summary))
	})
	for _, name := range helpTopicNames() {
		title := manTopicTitle[name]
		if title == "" {
			title = name
		}
		b.WriteString(".SH " + strings.ToUpper(roffText(title)))
		b.WriteString(roffText("memtrace help " + name + ":"))
		b.WriteString(".PP\n.nf\n")
		b.WriteString(roffText(helpTopics()[name]))
		b.WriteString(".fi\n")
	}
	b.WriteString(".SH ENVIRONMENT\n.TP\n.B MEMTRACE_DB\n" + roffText("The database file (or PostgreSQL DSN) when --db is not given."))
	b.WriteString(".TP\n.B OLLAMA_HOST\n" + roffText("The Ollama server of --judge and of an ollama:MODEL embedder (default 127.0.0.1:11434)."))
	b.WriteString(".TP\n.B MEMTRACE_VECTOR_FILE\n" + roffText("off: never use or write the vector file PATH-vectors beside a SQLite database (every open reads the vectors from the database); on: write it at any size (by default from 4,096 memories)."))
	b.WriteString(".TP\n.B MEMTRACE_LEXICON_FILE\n" + roffText("off: never use or write the lexicon file PATH-lexicon beside a SQLite database (every open tokenises every memory); on: write it at any size (by default from 4,096 memories)."))
	b.WriteString(".SH FILES\n.TP\n.B PATH\\-vectors\n" + roffText("The vector file beside the database PATH: every memory's vector, mapped by each new process instead of read from SQLite. A cache: rows written since are read from the database, a torn file is ignored and rewritten, memtrace erase deletes it, and deleting it by hand is safe."))
	b.WriteString(".TP\n.B PATH\\-lexicon\n" + roffText("The lexicon file beside the database PATH: every memory's lexical terms, read by each new process's open instead of tokenising the text again. A cache: rows written since are tokenised, a torn file or one another build of memtrace wrote is ignored and rewritten, memtrace erase deletes it, and deleting it by hand is safe."))
	b.WriteString(".SH EXIT STATUS\n" + roffText("0 on success, 1 when the command failed (the message on stderr says what to do), 2 for a usage error."))
	b.WriteString(".SH SEE ALSO\n" + roffText("The README and docs/ of the memtrace source, and `memtrace help COMMAND`."))
	_, err := io.WriteString(w, b.String())
	return err
}

const manDescription = `memtrace decides what an agent remembers (a three-layer noise filter, an optional local LLM judge, extraction gates, dedupe, corrections), what it recalls (an eleven-stage pipeline, every stage traced), and for how long (closed-form forgetting with association boosts), and shows each of those decisions. One binary, one SQLite file; a local Ollama is optional. With no command it opens the terminal UI on the database; memtrace demo builds a bilingual demo database and opens the UI on it.`

// manTopicTitle is the section title of each help topic in the man page.
var manTopicTitle = map[string]string{
	"decay":    "Forgetting",
	"stages":   "Recall stages",
	"json":     "Trace JSON",
	"time":     "Times",
	"review":   "The review queue",
	"embedder": "Embedders",
}

// roffText escapes plain text for roff: backslashes, and lines that would
// otherwise start a request (a leading . or '); hyphens stay ASCII minus
// signs, so an option copied from the page works. It ends with a newline.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
