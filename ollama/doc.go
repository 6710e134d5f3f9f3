// Package ollama is memtrace's adapter to a local Ollama server
// (github.com/ollama/ollama/api). It sits at the edge: it implements the
// engine's ports and imports memtrace/engine, and nothing under engine/
// imports it; the CLI wires it in. Its files are in three groups:
//   - client*.go: the connection (Client), model look-up, the streamed
//     chat, errors that say what to do, the breaker and the check (Probe);
//   - judge*.go: the judges on that client — the L3 capture judge
//     (engine.Judge), the triage judge for already-stored populations
//     (Triager), the promotion reviewer — with their prompts, the `format`
//     schemas and the verdict cache keyed by what determines a verdict;
//   - embedder.go: an /api/embed Embedder (engine.Embedder).
//
// Every call is deterministic as far as Ollama allows: temperature 0 and a
// fixed seed passed as an options map (Ollama's typed Options would drop the
// zero temperature), thinking off, and `format` set to a JSON schema. Every
// answer is validated against that schema; an answer that does not validate
// is retried once and then reported as needs-review — never acted upon.
// Memory text is untrusted data: it is delimited, escaped, stripped of
// extraction labels that would leak the answer, and scanned for attempts to
// instruct the judge, which are flagged for the curator.
package ollama
