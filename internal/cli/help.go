package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/ollama"
	"memtrace/policy"
	"memtrace/recall"
	"memtrace/tiers"
)

// cmdHelp runs `memtrace help [TOPIC]`: the command list, a topic (decay,
// heartbeat, stages, json, judge, time) or one command's full help (a family's: its
// subcommands'; `help golden run`: one subcommand's).
func cmdHelp(fs *flag.FlagSet) runFunc {
	return func(e *env, args []string) error {
		if len(args) == 0 {
			printUsage(e.stdout)
			fmt.Fprintf(e.stdout, "\ntopics: memtrace help %s|COMMAND\n", strings.Join(helpTopicNames(), "|"))
			return nil
		}
		// A topic named like a command (heartbeat) is part of the command's
		// help (printCommandHelp), so `help heartbeat` = `heartbeat -h`.
		c, isCmd := findCommand(commands(), args[0])
		if text, ok := helpTopics()[args[0]]; ok && len(args) == 1 && !(isCmd && c.subs == nil) {
			fmt.Fprint(e.stdout, text)
			if args[0] == "stages" {
				return printGateCalibration(e)
			}
			return nil
		}
		cmds, name := commands(), ""
		for i, word := range args {
			c, ok := findCommand(cmds, word)
			if !ok {
				if name == "" {
					return usageError{fmt.Sprintf("no help topic %q: try %s or a command name", word, strings.Join(helpTopicNames(), ", "))}
				}
				return usageError{fmt.Sprintf("%s has no subcommand %q", name, word)}
			}
			name = strings.TrimSpace(name + " " + word)
			if c.subs == nil {
				if i != len(args)-1 {
					return usageError{fmt.Sprintf("%s has no subcommands", name)}
				}
				printCommandHelp(e.stdout, name, c, flagSetOf(name, c))
				return nil
			}
			if i == len(args)-1 {
				printFamilyHelp(e.stdout, name, c)
				return nil
			}
			cmds = c.subs
		}
		return nil
	}
}

func helpTopics() map[string]string {
	return map[string]string{
		"decay":     engine.DecayHelp,
		"heartbeat": tiers.HeartbeatHelp,
		"stages":    stagesHelp,
		"json":      recallJSONHelp(),
		"judge":     judgeSchemasHelp(),
		"time":      timeHelpText(),
		// The review queue and the per-database embedder (help_review.go).
		"review":   reviewHelp,
		"embedder": embedderTopicHelp,
		// Knowledge updates: the supersession rule and recall across it.
		"updates": capture.SupersedeHelp,
		// Lesson identity: the key format and the canonicaliser's tables.
		"lessons": capture.LessonsHelp(),
		// The relevance gate at rerank: its thresholds and generic words.
		"relevance": recall.RelevanceGateHelp(),
		// Secret redaction at every door and erasure (help_secrets.go).
		"secrets": secretsHelp(),
		// The policy file: every tunable of engine.Config (memtrace/policy).
		"policy": policy.Help(),
	}
}

// judgeSchemasHelp prints the JSON schemas memtrace sends to Ollama as
// `format` — the judge contracts of DESIGN.md, exactly as sent, so a
// person pointing memtrace at their own model sees what it must answer.
func judgeSchemasHelp() string {
	var b strings.Builder
	b.WriteString("The judge's answers are constrained by these JSON schemas (sent as Ollama's\n")
	b.WriteString("`format`) and validated against them again; an answer that does not validate\n")
	b.WriteString("is retried once with the reason, then held as needs_review.\n")
	b.WriteString("A capture that carries a change marker is shown the stored memories it may\n")
	b.WriteString("update (C1 …); its schema adds an optional \"updates\": the labels it replaces\n")
	b.WriteString("(absent: the supersession rule decides; see memtrace help updates).\n")
	for _, s := range ollama.Schemas() {
		var out bytes.Buffer
		if err := json.Indent(&out, s.Schema, "", "  "); err != nil {
			out.Reset()
			out.Write(s.Schema)
		}
		fmt.Fprintf(&b, "\n%s:\n%s\n", s.Name, out.String())
	}
	return b.String()
}

func helpTopicNames() []string {
	var names []string
	for n := range helpTopics() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// stagesHelp describes the recall pipeline, stage by stage, with the
// parameters each stage shows in its notes.
const stagesHelp = `The recall pipeline: eleven traced stages, always in this order.
Every stage records the items it saw, their scores and, for every item it
drops, the reason. Scores are higher-is-better; a distance, if ever shown,
is named *_distance (lower is better).

 0 preprocess  normalise the query; drop English and Korean stop words and
               particles ("그 프로젝트의 진행 상황을 알려줘" → "프로젝트 진행 상황");
               one-character terms count half in BM25 (시 = city, hour, poem);
               English words are stemmed (Porter2) and irregular verb forms
               search as their base form ("bought" = "buy", "went" = "go")
 1 candidates  BM25 top-N ∪ cosine top-N (N = CandidatePool, default 50,
               and at least 2·k: mmr keeps 2·k for merge to choose from)
               ∪ every active HOT memory (judged at stage 5)
               scores: bm25_score, cosine_score
 2 exclude     quarantined; archived unless the query asks about the past
               or --include-cold; roles tool/system; another project's
               memories; echoes (same session, created ≤ 10 min before --at);
               superseded at --at unless the query asks about the past or
               --include-superseded (then labelled former: help updates)
 3 rerank      relevance_score = w × bm25_norm_score + (1 − w) × cosine_score,
               w = 0.7 under the hashed embedder, 0.5 under ollama:MODEL;
               bm25_norm_score = min(1, bm25_score / Σ weight·idf(term));
               the relevance gate keeps an item only with evidence: specific
               query terms in its own text carrying ≥ 10% of the query's idf
               mass (idf_share_score), or a cosine ≥ 0.50 to the query
               without its generic words, or a neighbour's specific terms;
               generic words (take, every, 하다, 모든 …) are no evidence
               (memtrace help relevance); then drops retrieved items below
               the floor 0.20
 4 temporal    memories created after --at do not exist yet; decay and
               boost at --at; drops memories past their recognition
               horizon, and the forgotten unless the query cues them
               specifically (recognised; see memtrace help decay)
               final_score = relevance_score × retention × (1 + boost)
               × (1 + 0.5 if created in a period the query names),
               retention = 1 − β × (1 − decay), β from the query's cue
               and temporal intent (now / past event / neutral)
 5 guaranteed  HOT memories enter the guaranteed channel only when
               relevance_score ≥ GuaranteedGate (0.25) for THIS query, at
               most GuaranteedCap (2); a HOT memory that fails the gate
               competes as an ordinary item if search found it, else drops
 6 mmr         mmr_score = λ × final_score / top final_score − (1 − λ) × max cosine to the
               selected (λ = MMRLambda, 0.7); keeps 2·k; drops
               near-duplicates (cosine ≥ 0.95)
 7 merge       k slots: guaranteed first, the rest split evenly between the
               fact channel (kind fact) and the semantic channel (the rest);
               unused quota passes to the other channel
 8 blend       the current session (--session) takes at most half of k;
               long-term memory keeps the rest
 9 prompt      one line per memory, "- [DATE TYPE] text", inside
               <memories …> … </memories>; text sanitised (no control
               characters, no escape sequences, no block tags)
10 budget      lines that fit --budget characters, whole block counted, in
               rank order; the survivors are what the agent receives

A read-only recall (the default) writes nothing. --commit-access records
each survivor's access (last_accessed_at, access_count) and boosts its
neighbours (memtrace help decay), in one transaction.
`

// recallJSONHelp documents `memtrace recall --json`, with the drop kinds
// listed from engine.DropKinds so the list cannot drift.
func recallJSONHelp() string {
	var b strings.Builder
	b.WriteString(recallJSONHead)
	for _, k := range engine.DropKinds() {
		fmt.Fprintf(&b, "  %-19s %-10s %s\n", k.Kind, k.Stage, k.Meaning)
	}
	b.WriteString(recallJSONTail)
	return b.String()
}

const recallJSONHead = `memtrace recall --json prints one trace document:

{
  "query": "충주 시에 충주 사과가 맛있었지?",
  "at": "2026-07-21T09:00:00Z",       the time the recall happened at (--at)
  "session", "project": "…",           when given
  "k": 8, "budget": 2000, "read_only": true,
  "stages": [                          the eleven stages, in order
    {"name": "preprocess", "in": 5, "out": 5,
     "items": [{"id": 12, "key": "m0216", "text": "…", "type": "note",
                "kind": "fact", "tier": "warm", "channel": "fact",
                "scores": {"bm25_score": 10.2, "cosine_score": 0.53, …},
                "dropped": "forgotten: …",   why, for people (when dropped)
                "drop_kind": "forgotten",    why, for programs (see below)
                "matched_terms": ["medic"],  rerank: query terms in its own text;
                "generic_terms": [],         the generic ones among them, and
                "context_terms": [],         specific ones only its neighbours hold
                "recognised": true,          temporal: kept by the query's cue
                                             although out of free recall
                "superseded": true,          a former fact, kept because the
                "superseded_by": 31,         query asks about the past or
                "valid_to": "2026-04-03T…"}], --include-superseded
     "notes": {"surface": "충주 시 충주 사과 맛있", …},  parameters of the stage
     "took_ms": 0.21}
  ],
  "prompt": "<memories …>\n- [2026-03-28 note] …\n</memories>",
  "prompt_chars": 672,
  "survivors": [{"id", "key", "text", "type", "kind", "tier", "channel",
                 "superseded_by"?, "valid_to"?}],   the last two: a former fact
  "guaranteed": 0                       survivors from the guaranteed channel
}

Score names: bm25_score, cosine_score, bm25_norm_score, idf_share_score,
relevance_score, importance, decay, boost, final_score, mmr_score,
redundancy_cosine_score (all higher-is-better), line_chars (a length). Channels: semantic, fact,
guaranteed. The same database, query and --at give the same document byte
for byte, except the timing fields named *_ms (took_ms), the only
nondeterministic values.

"dropped" is prose and may change wording; programs read "drop_kind", one
of this closed set (the stage that drops the item is the stage's "name"):

`

const recallJSONTail = `
memtrace compare --json gives every change the same facts: "reason" (for
people, "stage: reason"), "stage", "drop_kind" (not_retrieved when the other
side's recall never saw the memory) and "recognised_a" / "recognised_b"
(see docs/inspector.md). recall --trace counts each stage's drops by
drop_kind.
`

// timeHelpText is the one time grammar (engine.ParseWhen), then its table
// of examples (engine.TimeExamples) as this binary's parser reads them.
func timeHelpText() string {
	var b strings.Builder
	b.WriteString(timeHelp)
	examples, err := engine.TimeExamples()
	if err != nil {
		return b.String() + "\n(examples unavailable: " + err.Error() + ")\n"
	}
	now := engine.TimeExamplesNow
	fmt.Fprintf(&b, "\nWhen now is %s:\n", now.Format(time.RFC3339))
	var refused []string
	for _, x := range examples {
		at, err := engine.ParseAt(x.Input, now)
		if err != nil {
			refused = append(refused, fmt.Sprintf("  %s\n      %s\n", x.Input, err))
			continue
		}
		fmt.Fprintf(&b, "  %-26s %s\n", x.Input, at.Format(time.RFC3339Nano))
	}
	if len(refused) > 0 {
		b.WriteString("\nrefused, with the message every entry point gives:\n")
		b.WriteString(strings.Join(refused, ""))
	}
	return b.String()
}

// timeHelp is the grammar's description, before its examples.
const timeHelp = `Every time memtrace takes — recall, compare and forecast --at, golden run
and stress --at, heartbeat --at, the golden YAML's defaults.at and probe at,
the TUI's typed override (@) and MCP's memory_capture at — is read by one
grammar:

  now, or nothing      the database clock (its pinned clock, else the wall clock)
  +30d  -2h  +1w       an offset from now: a sign, then numbers with units
  +1d12h  +90m  +1.5d  w (weeks), d (days), h, m, s; at most 100 years
  2026-06-01           a date: midnight UTC
  2026-06-01T09:00:00Z an RFC 3339 time (any offset; shown in UTC)

In a golden set an offset counts from defaults.at; golden run --at moves
defaults.at (an offset there counts from it, or from now when the set has
none).
`

// printGateCalibration appends to help stages the capture's extraction
// gates and dedupe as calibrated under the embedder (--embedder, else the
// offline one): each gated type's exemplar centroid per script, its
// leave-one-out reference cosine (the similarity a candidate is divided
// by; one at the floor would make the gate's similarity half void) and how
// close plain statements come to it; then the dedupe threshold with the
// cosine distributions it was chosen from.
func printGateCalibration(e *env) error {
	emb, err := helpEmbedder(e)
	if err != nil {
		return err
	}
	cs, err := capture.GateCalibration(e.ctx, emb)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\nCapture's extraction gates (%s): exemplar centroids\n", emb.Name())
	fmt.Fprintln(e.stdout, "  type          script  exemplars  reference  exemplar p10  plain p90  threshold  kept   stopped")
	apart := 0
	for _, c := range cs {
		note := ""
		switch {
		case c.Floored:
			note = "  (at the floor: similarity half void)"
		case !c.Separates:
			note = "  (do not separate: the default)"
		case c.Threshold != c.Configured:
			note = fmt.Sprintf("  (calibrated from %.2f)", c.Configured)
		}
		if c.Separates {
			apart++
		}
		fmt.Fprintf(e.stdout, "  %-13s %-7s %9d  %9.3f  %12.3f  %9.3f  %9.3f  %-5s  %-7s%s\n", c.Type, c.Script, c.Exemplars, c.Reference, c.Exemplars10, c.Plain, c.Threshold,
			fmt.Sprintf("%d/%d", c.Kept, c.Exemplars), fmt.Sprintf("%d/%d", c.Stopped, c.PlainN), note)
	}
	fmt.Fprintln(e.stdout, "kept: held-out exemplars at or above the threshold; stopped: plain statements")
	fmt.Fprintln(e.stdout, "below it. A similarity half that keeps, or stops, half or fewer is void: it")
	fmt.Fprintln(e.stdout, "decides nothing the keyword did not (under the offline embedder a test holds")
	fmt.Fprintln(e.stdout, "every centroid above half of both, with three exemplars or more a script).")
	fmt.Fprintf(e.stdout, "Each threshold is read from this embedder (memtrace help embedder): where the\n")
	fmt.Fprintf(e.stdout, "held-out exemplars' p10 is above plain statements' p90 (%d of %d here), the\n", apart, len(cs))
	fmt.Fprintf(e.stdout, "configured %.2f stands if it lies between them, else their midpoint; where it\n", engine.DefaultConfig().GateSimilarity)
	fmt.Fprintln(e.stdout, "is not, the similarity cannot tell them apart and the configured threshold")
	fmt.Fprintln(e.stdout, "stays (the capture trail says so).")
	d, err := capture.CalibrateDedupe(e.ctx, emb, engine.DefaultConfig().DedupeSimilarity)
	if err != nil {
		return err
	}
	if d.VectorOff {
		fmt.Fprintf(e.stdout, "\nDedupe (%s): only the same content reinforces a memory — this embedder scores\n", emb.Name())
		fmt.Fprintln(e.stdout, "different facts as one (near misses above 0.96), so no cosine does")
	} else {
		fmt.Fprintf(e.stdout, "\nDedupe (%s): a capture reinforces a memory at cosine ≥ %.2f (configured %.2f;\n", emb.Name(), d.Threshold, d.Configured)
		fmt.Fprintln(e.stdout, "raised to the near misses' highest + 0.03 when an embedder scores them closer)")
	}
	fmt.Fprintf(e.stdout, "  restatements of one fact  %s\n", cosines(d.Duplicates))
	fmt.Fprintf(e.stdout, "  near misses, other facts  %s\n", cosines(d.Distinct))
	fmt.Fprint(e.stdout, statementsHelp)
	return nil
}

// statementsHelp describes the capture's statement split (capture/
// statements_split.go, statements_independent.go).
const statementsHelp = `
Capture's statement split (trail layer "statements"): a message of several
independent statements becomes one memory each, keys KEY, KEY#2, KEY#3 (at
most 4); a message of one statement keeps its key exactly. Parts are its
sentences, lines, bulleted or numbered items and coordinated clauses
(", and", "; ", "…고,", "이고", "그리고", "Also, …", and a bare "and",
"…고", "…는데" or "…지만" before a clause with a subject of its own). A part is a statement
of its own when it stands alone — a statement (no question, request or
chatter), its own predicate (English; Korean needs no verb), no pronoun or
pro-form pointing back ("he rides it", "그랬어"), no reason's ending
("…거든", "…해서"), no subject left out — and it speaks of another subject
than the part before: another person or the speaker, another slot (home,
employer …) or head noun. It stays with the part before when it qualifies
it (a condition), gives its reason (after an instruction or a
retraction), goes on with the same account (past events without a time of
their own, a Korean sentence without a subject), or is what someone was
reported to say. An instruction beside a fact and an item the speaker adds
split whatever their subject. Each statement is then judged, gated, typed,
deduped and superseded alone; the trail says why each part was or was not
one, also for a message that stayed one memory.
`

// helpEmbedder is the embedder --embedder names, else the offline one.
func helpEmbedder(e *env) (engine.Embedder, error) {
	if e.embedder == "" {
		return engine.NewHashed(engine.HashedDim), nil
	}
	spec, err := parseEmbedder(e.embedder)
	if err != nil {
		return nil, err
	}
	return spec.build(e.ctx)
}

// cosines is "min … median … max (n)" of ascending values.
func cosines(xs []float64) string {
	if len(xs) == 0 {
		return "none"
	}
	return fmt.Sprintf("min %.3f  median %.3f  max %.3f  (%d pairs)", xs[0], xs[len(xs)/2], xs[len(xs)-1], len(xs))
}
