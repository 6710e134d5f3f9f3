package cli

// reviewHelp describes the review queue (`memtrace help review`).
const reviewHelp = `The review queue: captures the judge could not decide.

An answer of the L3 judge that fails validation twice is needs_review. The
message is then neither stored nor dropped: its capture's outcome is "held"
and it waits in the review queue with the reason (ingest --json counts it
as needs_review, apart from dropped). An ingest run again skips it like any
captured message, so only the queue brings it back:

  memtrace review [list] [--status held|stored|reinforced|dropped|skipped|all] [--json]
  memtrace review retry ID…|--all --judge MODEL    offer it to the judge again,
        through the whole pipeline (L1, L2, judge, gates, dedupe); a judge
        that fails keeps it held (the rules never decide in its place here)
  memtrace review store ID… [--kind K] [--type T] [--importance X]
        store it by hand, like memtrace add, keyed by the message id; one
        audited batch, undone by memtrace rollback BATCH
  memtrace review skip ID… [--reason TEXT]   not a memory (a skipped item
        can still be stored or retried later)

A statement captured while the embedder is away (an Ollama server
stopped) is held too, with the reason embedder_unavailable: nothing is
lost. Once the server is back, memtrace review retry --all (no --judge
needed) offers those items again to the rules that held them.

Every offer and decision is logged in captures. In the TUI: Curate, v
(a store as…, x skip); Captures, l until "held".
`

// embedderTopicHelp describes the per-database embedder (`memtrace help
// embedder`).
const embedderTopicHelp = `Embedders: one per database, named in its settings.

  hashed             the offline hashed n-gram embedder (default, 256-d)
  ollama:MODEL       an Ollama embedding model (host from $OLLAMA_HOST),
                     e.g. ollama:nomic-embed-text

--embedder, like --db, works on every command, before or after its name.
A database without memories takes the embedder asked for;
one whose vectors come from another embedder is refused with the command
to run. The TUI, the MCP server and the CLI all open a database with its
own embedder.

  memtrace reembed [--embedder E] [--batch N] [--json]
        re-embed every memory with E and make E the database's embedder;
        progress on stderr; the vectors are written batch by batch and the
        database switches at the end, so an interrupted run is resumed by
        running memtrace reembed again. Vectors are derived data: not
        audited; reembed --embedder hashed goes back. Until it finishes,
        the database keeps its old embedder (recorded in the settings when
        reembed starts), so every command works even if the server goes
        away; --embedder may name the unfinished reembed's target.

Thresholds per embedder. A cosine means something else under each
embedder, so the capture reads its two thresholds from the embedder itself
each time it starts (memtrace help stages --embedder E prints them):

  gate     a declaration label (milestone, habit, achievement, gift,
           shared_thing) needs its keyword and a similarity to the type's
           exemplars (per script, English and Korean). Each exemplar is held
           out of its centroid and scored against the others; plain
           statements (facts and preferences, none a declaration) are scored
           too. Where the exemplars' 10th percentile is above the plain
           statements' 90th the embedder separates them: the configured
           threshold (capture.gate_similarity, 0.50) stands if it lies
           between the two, else their midpoint is used. Where it is not,
           the embedder does not separate them — reported for the CI's tiny
           Ollama model, whose plain statements score above the exemplars —
           and the configured threshold stays: the capture trail says
           "threshold 0.50 by default". Under hashed no
           threshold moves (8 of 10 centroids do not separate, the other
           two hold 0.50 between their percentiles).
  dedupe   bilingual restatements of one fact and near misses (another fact
           in the same words): the threshold is the configured
           capture.dedupe_similarity (0.92), or the near misses' highest
           + 0.03 when the embedder scores them above it; when that passes
           0.99 only the same content reinforces. Under hashed: 0.92.

With an Ollama embedder whose server is away, commands that need no new
vector work as usual; recall falls back to the lexical channels (BM25,
periods, HOT) and says so: "fallback": "lexical" in the trace, and the
preprocess stage's notes embedder_unavailable and fallback.
`
