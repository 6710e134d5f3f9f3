package curate

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// EraseSelector names what an erasure removes: memories by id or key, or
// the ones a search finds — Text (a case-insensitive substring of the
// content), Session, Source (the import source: jsonl, chroma, mem0,
// memory-files; "capture" for captured memories). The filters of a search
// all hold at once. Subject searches go through recall (SubjectCandidates).
type EraseSelector struct {
	IDs     []int64
	Keys    []string
	Text    string
	Session string
	Source  string
}

// Empty reports whether the selector names nothing.
func (s EraseSelector) Empty() bool {
	return len(s.IDs) == 0 && len(s.Keys) == 0 && s.Text == "" && s.Session == "" && s.Source == ""
}

// FindErasable returns the memories sel names that are not erased yet, in
// id order. A named id or key that does not exist is an error.
func FindErasable(ctx context.Context, q engine.Queries, sel EraseSelector) ([]*engine.Memory, error) {
	if sel.Empty() {
		return nil, engine.Errorf(engine.EINVALID, "name what to erase: ids or key:K, or --text, --subject, --session, --source")
	}
	byID := map[int64]*engine.Memory{}
	for _, id := range sel.IDs {
		m, err := q.GetMemory(ctx, id)
		if err != nil {
			return nil, err
		}
		byID[m.ID] = m
	}
	for _, k := range sel.Keys {
		m, err := q.GetMemoryByKey(ctx, k)
		if err != nil {
			return nil, err
		}
		byID[m.ID] = m
	}
	if sel.Text != "" || sel.Session != "" || sel.Source != "" {
		ms, _, err := q.FindMemories(ctx, engine.MemoryFilter{Text: sel.Text, Session: sel.Session})
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if sel.Source != "" {
				src, err := memorySource(ctx, q, m.ID)
				if err != nil {
					return nil, err
				}
				if !strings.EqualFold(src, sel.Source) {
					continue
				}
			}
			byID[m.ID] = m
		}
	}
	return erasable(byID), nil
}

// memorySource is where memory id came from: its import source, or
// "capture".
func memorySource(ctx context.Context, q engine.Queries, id int64) (string, error) {
	s, err := q.GetMemorySource(ctx, id)
	if engine.ErrorCode(err) == engine.ENOTFOUND {
		return "capture", nil
	} else if err != nil {
		return "", err
	}
	return s.Source, nil
}

// eraseSubjectK is how many memories a subject's recall looks at: an
// erasure asks about every memory that names the subject, not the few an
// agent would be shown.
const eraseSubjectK = 1000

// SubjectQuery is the recall an erase request by subject runs (the CLI's
// --subject, the TUI's Curate erase view): read-only, every tier and
// superseded memory included, as many candidates as eraseSubjectK.
func SubjectQuery(subject string, at time.Time) engine.Query {
	return engine.Query{Text: subject, At: at, K: eraseSubjectK, Budget: 1 << 20, ReadOnly: true, IncludeCold: true, IncludeSuperseded: true}
}

// SubjectCandidates are the memories a recall for a subject ("Jun") found
// by its words: the items of the trace's candidates stage (lexical and
// vector hits) whose own text holds a specific term of the query, or one
// of its words as written (the lexical index also scores a memory by its
// conversational neighbours' words, which name the subject, not it; and
// reads "지연이가" as a term of its own), before any later stage dropped them (an
// erasure asks about every memory that names the subject, not only the
// ones the agent would be shown). The curator confirms them one by one.
func SubjectCandidates(ctx context.Context, q engine.Queries, tr *engine.Trace) ([]*engine.Memory, error) {
	st := tr.Stage("candidates")
	if st == nil {
		return nil, engine.Errorf(engine.EINVALID, "the trace has no candidates stage")
	}
	terms := map[string]bool{}
	for _, t := range engine.LexTerms(tr.Query) {
		if !textnorm.IsGeneric(t) {
			terms[t] = true
		}
	}
	byID := map[int64]*engine.Memory{}
	for _, it := range st.Items {
		m, err := q.GetMemory(ctx, it.ID)
		if err != nil {
			return nil, err
		}
		if it.Scores["bm25_score"] > 0 && namesAny(m.Content, terms) || holdsWord(m.Content, tr.Query) {
			byID[m.ID] = m
		}
	}
	return erasable(byID), nil
}

// holdsWord: text holds a word of the query (two letters or more, no stop
// word) as written, whatever follows it — a Korean name with its particle
// ("지연이가") is a term of its own to the lexical index.
func holdsWord(text, query string) bool {
	lower := strings.ToLower(text)
	for _, w := range strings.Fields(strings.ToLower(query)) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if utf8.RuneCountInString(w) >= 2 && !textnorm.IsStopWord(w) && !textnorm.IsGeneric(w) && strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// namesAny: text's own lexical terms hold one of terms.
func namesAny(text string, terms map[string]bool) bool {
	for _, t := range engine.LexTerms(text) {
		if terms[t] {
			return true
		}
	}
	return false
}

func erasable(byID map[int64]*engine.Memory) []*engine.Memory {
	var out []*engine.Memory
	for _, m := range byID {
		if m.Status != engine.StatusErased {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b *engine.Memory) int { return int(a.ID - b.ID) })
	return out
}

// Erase removes the memories' text from everything the store keeps, in one
// transaction, and leaves a tombstone for each (engine.Eraser). It is a
// curator's action only: no MCP tool reaches it. It cannot be rolled back.
func Erase(ctx context.Context, st engine.Store, ms []*engine.Memory, actor, reason string) (*engine.EraseReport, error) {
	er, ok := st.(engine.Eraser)
	if !ok {
		return nil, engine.Errorf(engine.EUNAVAIL, "this store cannot erase")
	}
	if actor == "" {
		actor = engine.ActorCurator
	}
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	rep, err := er.EraseMemories(ctx, engine.EraseRequest{IDs: ids, Actor: actor, Reason: strings.TrimSpace(reason)})
	if err != nil {
		return nil, err
	}
	rep.Reversible = false
	return rep, nil
}

// Tombstones lists the erasures of memory id (0: all).
func Tombstones(ctx context.Context, st engine.Store, id int64) ([]engine.Tombstone, error) {
	er, ok := st.(engine.Eraser)
	if !ok {
		return nil, nil
	}
	return er.Tombstones(ctx, id)
}

// NoteArtifact notes a file memtrace wrote outside the database that
// holds memory text (an export, an --otel file), so that a later erasure
// lists it. Backups record themselves.
func NoteArtifact(ctx context.Context, st engine.Store, kind, path string) error {
	er, ok := st.(engine.Eraser)
	if !ok {
		return nil
	}
	return er.RecordArtifact(ctx, engine.Artifact{Kind: kind, Path: path})
}
