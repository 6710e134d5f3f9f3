package cli

import (
	"fmt"
	"strings"

	"memtrace/engine/secret"
	"memtrace/internal/textable"
)

// secretsHelp is `memtrace help secrets`: the pattern table of package
// secret, printed from the table itself so the two cannot drift, and what
// erasure does.
func secretsHelp() string {
	var b strings.Builder
	b.WriteString(`Secrets never become memories. Every door — capture (ingest, import,
MCP memory_capture and memory_correct), import memories, import md and add —
replaces each value below with a typed placeholder before anything else reads
the text: the memory keeps the statement ("My password is [secret:password]"),
and the store, the embedder, the judge, traces and exports never see the
value. A capture's trail names the patterns it found (layer "secret"); ingest
and import count them by pattern (summary and --json "redacted"), audit counts
the placeholders by type and finds values stored in clear before redaction;
add says so on stderr. Values inside a URL that are a signed link's grant
(…?token=eyJ…) or a digit run of a file name are left as they are.

pattern (placeholder [secret:NAME]) — what it matches — example
`)
	for _, p := range secret.Patterns {
		fmt.Fprintf(&b, "\n  %s\n", p.Name)
		for _, line := range textable.Wrap(strings.Join(strings.Fields(p.Shape), " "), 72) {
			fmt.Fprintf(&b, "    %s\n", line)
		}
		fmt.Fprintf(&b, "    e.g. %q → %q\n", p.Example, secret.Redact(p.Example).Text)
	}
	b.WriteString(`
The Korean and URL forms show as [secret:password]; card numbers must pass the
Luhn check.

To see them instead: ingest and import (conversations) take --secrets hold.
A message holding a value is then neither stored nor judged: it waits in the
review queue with its raw text and the patterns found (memtrace review list,
the curator's view; its capture record has the placeholders). review store
ID stores it with placeholders, review skip ID drops it; either leaves only
the redacted text in the queue. The raw value stays in the database file
until then (and in free pages after: memtrace erase --compact rebuilds the
file), and in any backup taken meanwhile.

A secret that got in before (or a person's data on request) is removed with
memtrace erase (curator only; no MCP tool can erase): by id, key:K, --text,
--subject (through recall), --session or --source. It lists what it will
remove and asks twice (or --confirm N). The text leaves the memory row, its
audit before/after, the captures and review queue, the lexical index and
vectors, stored traces, quotes in proposals, lessons and golden runs, and the
entries of every judge cache file a run used (rewritten in place); a
tombstone keeps who, when, why and a salted SHA-256. SQLite runs it with
secure_delete, then VACUUM and wal_checkpoint(TRUNCATE); PostgreSQL runs
VACUUM FULL of the tables (its WAL and base backups keep old rows until
recycled). It cannot be rolled back, and no rollback of an earlier batch
brings the text back. Backups, exports and --otel files written before are
listed: memtrace cannot reach into them. memory_forget still only
quarantines (reversible).
`)
	return b.String()
}
