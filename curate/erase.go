package curate

import (
	"context"
	"slices"
	"strings"

	"memtrace/engine"
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

// SubjectCandidates are the memories a recall for a subject ("Jun") found
// by its words: the items of the trace's candidates stage with a lexical
// score, before any later stage dropped them (an erasure asks about every
// memory that names the subject, not only the ones the agent would be
// shown). The curator confirms them one by one.
func SubjectCandidates(ctx context.Context, q engine.Queries, tr *engine.Trace) ([]*engine.Memory, error) {
	st := tr.Stage("candidates")
	if st == nil {
		return nil, engine.Errorf(engine.EINVALID, "the trace has no candidates stage")
	}
	byID := map[int64]*engine.Memory{}
	for _, it := range st.Items {
		if it.Scores["bm25_score"] <= 0 {
			continue
		}
		m, err := q.GetMemory(ctx, it.ID)
		if err != nil {
			return nil, err
		}
		byID[m.ID] = m
	}
	return erasable(byID), nil
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
