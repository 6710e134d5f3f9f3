package capture

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"memtrace/engine"
)

// StoredMemory is one memory as another agent's memory store keeps it (a
// Chroma collection, a mem0 history database, MEMORY.md files, a generic
// JSONL export). It is imported as it is — no L1/L2/judge/gates at the
// door, because the point is to audit what is already there.
type StoredMemory struct {
	// SourceID is the id the source gave the memory; it becomes the key.
	SourceID string
	Text     string
	// Type is the source's type or label; empty means: the label prefix of
	// the text ("[MILESTONE:love] …" → milestone), else note.
	Type string
	// Importance in [0, 1]; NaN means the source has none (the type's
	// default applies).
	Importance     float64
	CreatedAt      time.Time // zero: the import's time
	LastAccessedAt time.Time // zero: CreatedAt
	// Deleted in the source (mem0's is_deleted): imported quarantined,
	// never dropped.
	Deleted bool
	Scope   string
	Session string
	// Owner is the user the source keeps the memory for (mem0's user_id);
	// empty when the source names none. MemoryImportOptions.Users says what
	// it becomes.
	Owner string
	// Position is where the record stood in the source ("line 12", "row 7",
	// "memory/2026-03-01.md:4"), for errors and for `show`.
	Position string
	// Metadata is whatever else the source kept, shown in `show`.
	Metadata map[string]any
}

// RecordError is a source record that could not be imported, by position.
type RecordError struct {
	Position string `json:"position"`
	Error    string `json:"error"`
}

func (r RecordError) String() string { return r.Position + ": " + r.Error }

// MemoryImportOptions say what is imported from where.
type MemoryImportOptions struct {
	Source string // jsonl, chroma, mem0, memory-files
	Path   string
	// KeyPrefix is put before every source id to make the key, for two
	// sources whose ids could collide; empty by default.
	KeyPrefix string
	// Users says how the users a source names (StoredMemory.Owner) are kept
	// apart: UsersScope (the default, "") gives each user's memories the
	// scope UserScope(owner); UsersMerge leaves them in the record's scope
	// (the owner stays in the metadata, user_id). UsersSpace — a database
	// space per user — is done by the caller, which imports each user's
	// records into that user's space.
	Users string
}

// The --users modes of `import memories`.
const (
	UsersScope = "scope"
	UsersSpace = "space"
	UsersMerge = "merge"
)

// UserScope is the scope a user's imported memories get under --users
// scope: domain:user-OWNER, with the characters a scope name cannot hold
// (/ \ : * ? " < > |) replaced by "_".
func UserScope(owner string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune("/\\\x00:*?\"<>|", r) || r < ' ' {
			return '_'
		}
		return r
	}, strings.TrimSpace(owner))
	for len(name) > 85 { // a scope name holds at most 100 bytes; cut on a rune
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return "domain:user-" + name
}

// MemoryImportReport is what an import of stored memories did
// (`import memories --json`). Offered = Stored + AlreadyImported + Errors;
// Quarantined counts the stored memories that were deleted in the source.
type MemoryImportReport struct {
	Source          string        `json:"source"`
	Path            string        `json:"path"`
	Offered         int           `json:"offered"`
	Stored          int           `json:"stored"`
	Quarantined     int           `json:"quarantined"`
	AlreadyImported int           `json:"already_imported"`
	Errors          int           `json:"errors"`
	Problems        []RecordError `json:"problems"`
	Batch           string        `json:"batch,omitempty"` // empty when nothing was stored
	// Redacted counts the records whose text held secret values (replaced
	// by placeholders), per pattern of the table.
	Redacted map[string]int `json:"redacted,omitempty"`
}

// labelPrefix finds an extraction label at the start of a memory's text:
// "[MILESTONE:love] …", "[preference] …", "(마일스톤) …". Group 1 is the
// label, group 2 its qualifier.
var labelPrefix = regexp.MustCompile(`^\s*[\[(【]\s*([\p{L}_][\p{L}\p{N}_ -]{0,30}?)\s*(?:[:/=]\s*([\p{L}\p{N}_ -]{1,30}?))?\s*[\])】]`)

// LabelPrefix returns the label prefix of text as it is written without its
// brackets ("MILESTONE:love"), its label alone normalised as a type
// ("milestone"), and whether there is one.
func LabelPrefix(text string) (written, label string, ok bool) {
	m := labelPrefix.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	written = strings.TrimSpace(m[1])
	if m[2] != "" {
		written += ":" + strings.TrimSpace(m[2])
	}
	return written, normalType(strings.ReplaceAll(strings.TrimSpace(m[1]), " ", "_")), true
}

// ImportMemories stores recs as they are, in one audited batch
// ("import:<source>:…"), with where each came from. A record whose key is
// already in the database is left alone (AlreadyImported), so importing the
// same source twice changes nothing; a record without text or id, or whose
// id repeats within the source, is reported by position and the rest is
// imported. problems are the records the reader could not parse; they are
// counted as errors and reported beside the rest.
func ImportMemories(ctx context.Context, e *engine.Engine, o MemoryImportOptions, recs []StoredMemory, problems []RecordError) (*MemoryImportReport, error) {
	rep := &MemoryImportReport{Source: o.Source, Path: o.Path, Problems: append([]RecordError{}, problems...)}
	rep.Offered = len(recs) + len(problems)
	now := e.Now()
	items := importItems(o, recs, now, rep)
	rep.Errors = len(rep.Problems)
	items, err := notImported(ctx, e, items, rep)
	if err != nil || len(items) == 0 {
		return rep, err
	}
	if err := embedItems(ctx, e, items); err != nil {
		return rep, err
	}
	batch := importBatchID(o.Source, now)
	stored, raced, err := storeItems(ctx, e, items, engine.Actor{Name: engine.ActorImport, Batch: batch})
	if err != nil {
		return rep, err
	}
	rep.AlreadyImported += raced
	rep.Stored = stored
	if stored > 0 {
		rep.Batch = batch
	}
	for _, it := range items {
		if it.m.ID != 0 && it.m.Status == engine.StatusQuarantined {
			rep.Quarantined++
		}
	}
	return rep, nil
}

// importItem is one record about to be stored, with where it came from.
type importItem struct {
	m   *engine.Memory
	src *engine.MemorySource
}

// importItems maps the records to memories, reporting in rep.Problems each
// one that cannot be imported (and why) and keeping the rest.
func importItems(o MemoryImportOptions, recs []StoredMemory, now time.Time, rep *MemoryImportReport) []importItem {
	items := make([]importItem, 0, len(recs))
	seen := make(map[string]string, len(recs))
	for _, r := range recs {
		bad := func(format string, args ...any) {
			rep.Problems = append(rep.Problems, RecordError{Position: r.Position, Error: fmt.Sprintf(format, args...)})
		}
		id := strings.TrimSpace(r.SourceID)
		text, found := RedactSecrets(strings.TrimSpace(r.Text)) // before anything stores or embeds it
		switch {
		case id == "":
			bad("no id: every memory needs the id its store gave it")
			continue
		case text == "":
			bad("memory %q has no text", id)
			continue
		case seen[id] != "":
			bad("id %q repeats the one at %s; the first is imported", id, seen[id])
			continue
		case !math.IsNaN(r.Importance) && (r.Importance < 0 || r.Importance > 1):
			bad("memory %q: importance %v is outside 0…1", id, r.Importance)
			continue
		}
		for _, name := range found {
			if rep.Redacted == nil {
				rep.Redacted = map[string]int{}
			}
			rep.Redacted[name]++
		}
		seen[id] = r.Position
		if seen[id] == "" {
			seen[id] = "an earlier record"
		}
		typ := normalType(strings.ReplaceAll(r.Type, " ", "_"))
		if strings.TrimSpace(r.Type) == "" {
			typ = "note"
			if _, label, ok := LabelPrefix(text); ok {
				typ = label
			}
		}
		imp := r.Importance
		if math.IsNaN(imp) {
			imp = typeImportance(typ)
		}
		created := r.CreatedAt.UTC()
		if created.IsZero() {
			created = now
		}
		accessed := r.LastAccessedAt.UTC()
		if accessed.IsZero() || accessed.Before(created) {
			accessed = created
		}
		scope := r.Scope
		owner := strings.TrimSpace(r.Owner)
		if owner != "" && scope == "" && (o.Users == "" || o.Users == UsersScope) {
			scope = UserScope(owner)
		}
		m := &engine.Memory{Key: o.KeyPrefix + id, Content: text, Type: typ, Kind: kindOf(typ, text, lexNorm(text)),
			Importance: imp, Scope: scope, Session: r.Session, CreatedAt: created, LastAccessedAt: accessed}
		if r.Deleted {
			m.Quarantine()
		}
		meta := r.Metadata
		if meta == nil {
			meta = map[string]any{}
		}
		redactFields("", meta) // a source may keep a value beside the text
		if owner != "" {
			meta["user_id"] = owner
		}
		raw, err := json.Marshal(meta)
		if err != nil {
			bad("memory %q: its metadata cannot be kept as JSON: %v", id, err)
			continue
		}
		items = append(items, importItem{m: m, src: &engine.MemorySource{Source: o.Source, SourceID: id, Position: r.Position, Metadata: raw, ImportedAt: now}})
	}
	return items
}

// notImported drops the items whose key is here already, from the cache
// brought up to date, so a re-import embeds nothing; a key another process
// stores meanwhile is caught by the insert (storeItems).
func notImported(ctx context.Context, e *engine.Engine, items []importItem, rep *MemoryImportReport) ([]importItem, error) {
	if err := e.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	fresh := items[:0]
	for _, it := range items {
		if _, ok := e.MemoryByKey(it.m.Key); ok {
			rep.AlreadyImported++
			continue
		}
		fresh = append(fresh, it)
	}
	return fresh, nil
}

// embedItems embeds and prepares the items in chunks, as many at once as
// there are CPUs: a 100k import spends a fifth of its time here, and the
// embedders are safe for concurrent use.
func embedItems(ctx context.Context, e *engine.Engine, items []importItem) error {
	return parallelChunks(len(items), 512, func() func(lo, hi int) error {
		return func(lo, hi int) error {
			part := items[lo:hi]
			texts := make([]string, len(part))
			for k, it := range part {
				texts[k] = it.m.Content
			}
			vs, err := e.Embedder().Embed(ctx, texts)
			if err != nil {
				return fmt.Errorf("import: embed with %s: %w", e.Embedder().Name(), err)
			}
			for k, it := range part {
				it.m.Embedding, it.m.Embedder = vs[k], e.Embedder().Name()
				if err := e.PrepareMemory(ctx, it.m); err != nil {
					return err
				}
			}
			return nil
		}
	})
}

// storeItems inserts the items and their sources in one transaction under
// actor, and puts what changed into the cache. raced counts the items
// another process stored since notImported looked.
func storeItems(ctx context.Context, e *engine.Engine, items []importItem, actor engine.Actor) (stored, raced int, err error) {
	seq0 := e.Seq()
	var changed []*engine.Memory
	err = e.Store().Update(ctx, func(q engine.Queries) error {
		stored, raced, changed = 0, 0, nil
		// As in CaptureBatch: the transaction holds the write lock, so what
		// other writers changed since the cache's last refresh, read here,
		// and this batch's inserts are every change up to the commit; the
		// caches take both without reading 100k rows back.
		others, _, err := q.MemoriesChangedSince(ctx, seq0)
		if err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
		changed = others
		for _, it := range items {
			if err := q.InsertMemory(ctx, it.m, actor); engine.ErrorCode(err) == engine.ECONFLICT {
				it.m.ID, raced = 0, raced+1 // stored by another process since the check
				continue
			} else if err != nil {
				return fmt.Errorf("%s: %w", it.src.Position, err)
			}
			stored++
			changed = append(changed, it.m)
			it.src.MemoryID = it.m.ID
			if err := q.SaveMemorySource(ctx, it.src); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("import: nothing was stored: %w", err)
	}
	if err := e.LoadWritten(ctx, changed, nil); err != nil {
		return 0, 0, fmt.Errorf("import: stored, but the indexes did not take it (reopen the database): %w", err)
	}
	return stored, raced, nil
}

// importBatchID names an import's batch by source and time, with a random
// part: two imports within one tick of a pinned clock are still two
// batches.
func importBatchID(source string, now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "import:" + source + ":" + now.Format("20060102T150405.000000000") + "-" + hex.EncodeToString(b[:])
}
