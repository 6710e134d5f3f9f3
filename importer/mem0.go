package importer

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// Mem0DeletedText is the text a memory deleted in mem0 is imported with:
// the user asked mem0 to forget it (a password, a token), so its words are
// not kept — only that it existed, its times, its events and a SHA-256 of
// its text (metadata deleted_text_sha256), quarantined.
const Mem0DeletedText = "(deleted in mem0; its text is not kept · mem0에서 삭제됨, 내용은 보관하지 않음)"

// ReadMem0 reads a mem0 local history database (SQLiteManager's history
// table in mem0/memory/storage.py: id, memory_id, old_memory, new_memory,
// event, created_at, updated_at, is_deleted, actor_id, role), or, when
// path is a JSON file, a mem0 export (see readMem0Export).
//
// mem0 writes one row per event (ADD, UPDATE, DELETE) of a memory. The rows
// are replayed in the order mem0 inserted them — SQLite's rowid, since the
// table's id is a random UUID — never by timestamp: mem0 0.1.x writes
// DELETE rows with created_at and updated_at NULL, and its times are local
// (US/Pacific) while newer versions write UTC. A memory's final state is
// its last row: the text of its last ADD/UPDATE (old_memory values are
// history, never a memory of their own); created_at its first; a memory
// whose last row deleted it is imported quarantined with its text withheld
// (Mem0DeletedText). The events are kept as metadata (mem0_events: event,
// row, at, actor_id, role; no texts). The messages table of newer versions
// is mem0's conversation buffer and is not read.
//
// History rows name no user: mem0 keeps user_id in the vector store's
// payload. payloads, when not empty, is that store's points (see
// ReadMem0Payloads); a memory whose point is there gets the point's
// user_id as its owner and agent_id, run_id, actor_id and role as
// provenance. A deleted memory has no point any more: its owner is unknown.
func ReadMem0(path, payloads string) ([]capture.StoredMemory, []capture.RecordError, error) {
	if isJSONFile(path) {
		return readMem0Export(path)
	}
	var points map[string]map[string]any
	if payloads != "" {
		var err error
		if points, err = ReadMem0Payloads(payloads); err != nil {
			return nil, nil, err
		}
	}
	db, err := openForeignSQLite(path)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	tables, err := tablesOf(db)
	if err != nil {
		return nil, nil, err
	}
	if !tables["history"] {
		return nil, nil, engine.Errorf(engine.EINVALID, "%s is not a mem0 history database: it has no history table", path)
	}
	rows, err := db.Query(`SELECT rowid, COALESCE(memory_id, ''), old_memory, new_memory, COALESCE(event, ''),
		COALESCE(CAST(created_at AS TEXT), ''), COALESCE(CAST(updated_at AS TEXT), ''), COALESCE(is_deleted, 0),
		COALESCE(actor_id, ''), COALESCE(role, '')
		FROM history ORDER BY rowid`)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer rows.Close()
	var order []string
	byID := map[string]*mem0State{}
	var bad []capture.RecordError
	for rows.Next() {
		var r mem0Row
		if err := rows.Scan(&r.rowid, &r.id, &r.oldText, &r.newText, &r.event, &r.created, &r.updated, &r.deleted, &r.actor, &r.role); err != nil {
			return nil, bad, fmt.Errorf("read %s: %w", path, err)
		}
		pos := fmt.Sprintf("history row %d", r.rowid)
		if r.id == "" {
			bad = append(bad, capture.RecordError{Position: pos, Error: "no memory_id"})
			continue
		}
		ct, err := parseStoredTime(r.created)
		if err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: "created_at: " + err.Error()})
			continue
		}
		ut, err := parseStoredTime(r.updated)
		if err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: "updated_at: " + err.Error()})
			continue
		}
		s := byID[r.id]
		if s == nil {
			s = &mem0State{m: capture.StoredMemory{SourceID: r.id, Importance: math.NaN(), Position: pos}}
			byID[r.id] = s
			order = append(order, r.id)
		}
		s.apply(r, ct, ut)
	}
	if err := rows.Err(); err != nil {
		return nil, bad, fmt.Errorf("read %s: %w", path, err)
	}
	out := make([]capture.StoredMemory, 0, len(order))
	for _, id := range order {
		m, problem := byID[id].memory(points[id])
		if problem != "" {
			bad = append(bad, capture.RecordError{Position: m.Position, Error: problem})
			continue
		}
		out = append(out, m)
	}
	return out, bad, nil
}

type mem0Row struct {
	rowid                              int64
	id, event, created, updated, actor string
	role                               string
	oldText, newText                   sql.NullString
	deleted                            int64
}

// mem0State is one memory_id replayed up to the current row.
type mem0State struct {
	m       capture.StoredMemory
	text    string
	deleted bool
	events  []map[string]any
}

func (s *mem0State) apply(r mem0Row, ct, ut time.Time) {
	if !ct.IsZero() && (s.m.CreatedAt.IsZero() || ct.Before(s.m.CreatedAt)) {
		s.m.CreatedAt = ct
	}
	last := ut
	if last.IsZero() {
		last = ct
	}
	if last.After(s.m.LastAccessedAt) {
		s.m.LastAccessedAt = last
	}
	switch r.event {
	case "DELETE":
		if s.text == "" && r.oldText.Valid {
			s.text = r.oldText.String
		}
		s.deleted = true
	default: // ADD, UPDATE, and whatever a later mem0 adds that carries text
		if r.newText.Valid && r.newText.String != "" {
			s.text = r.newText.String
		} else if s.text == "" && r.oldText.Valid {
			s.text = r.oldText.String
		}
		s.deleted = r.deleted != 0
	}
	ev := map[string]any{"event": r.event, "row": r.rowid}
	if !last.IsZero() {
		ev["at"] = last.Format(time.RFC3339Nano)
	}
	if r.actor != "" {
		ev["actor_id"] = r.actor
	}
	if r.role != "" {
		ev["role"] = r.role
	}
	s.events = append(s.events, ev)
}

// memory is the replayed state as a stored memory, with its vector-store
// point's payload (nil when there is none).
func (s *mem0State) memory(point map[string]any) (capture.StoredMemory, string) {
	m := s.m
	if s.text == "" {
		return m, fmt.Sprintf("memory %q has no text in any event", m.SourceID)
	}
	m.Metadata = map[string]any{"mem0_events": s.events}
	m.Text, m.Deleted = s.text, s.deleted
	if s.deleted {
		sum := sha256.Sum256([]byte(s.text))
		m.Text = Mem0DeletedText
		m.Metadata["deleted_text_sha256"] = hex.EncodeToString(sum[:])
		return m, "" // its point is gone: no owner
	}
	mem0Provenance(&m, point)
	return m, ""
}

// mem0Provenance takes the owner (user_id) and the provenance keys of a
// mem0 payload or export record into m.
func mem0Provenance(m *capture.StoredMemory, p map[string]any) {
	if u, ok := p["user_id"].(string); ok {
		m.Owner = u
	}
	for _, k := range []string{"agent_id", "run_id", "actor_id", "role"} {
		if v, ok := p[k].(string); ok && v != "" {
			m.Metadata[k] = v
		}
	}
}
