package importer

import (
	"database/sql"
	"fmt"
	"math"

	"memtrace/capture"
	"memtrace/engine"
)

// ReadMem0 reads a mem0 local history database (SQLiteManager's history
// table: id, memory_id, old_memory, new_memory, event, created_at,
// updated_at, is_deleted, actor_id, role). mem0 keeps one row per event
// (ADD, UPDATE, DELETE) of a memory; memtrace imports one memory per
// memory_id with its latest text, first created_at and last change, and a
// memory whose last event deleted it is imported quarantined — never
// dropped — with the text it had before. The event history is kept as
// metadata.
func ReadMem0(path string) ([]capture.StoredMemory, []capture.RecordError, error) {
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
		FROM history ORDER BY memory_id, COALESCE(updated_at, created_at), rowid`)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer rows.Close()
	type state struct {
		m       capture.StoredMemory
		text    string
		deleted bool
		events  []map[string]any
	}
	var order []string
	byID := map[string]*state{}
	var bad []capture.RecordError
	for rows.Next() {
		var (
			rowid                                  int64
			id, event, created, updated, actor, ro string
			oldText, newText                       sql.NullString
			deleted                                int64
		)
		if err := rows.Scan(&rowid, &id, &oldText, &newText, &event, &created, &updated, &deleted, &actor, &ro); err != nil {
			return nil, bad, fmt.Errorf("read %s: %w", path, err)
		}
		pos := fmt.Sprintf("history row %d", rowid)
		if id == "" {
			bad = append(bad, capture.RecordError{Position: pos, Error: "no memory_id"})
			continue
		}
		ct, err := parseStoredTime(created)
		if err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: "created_at: " + err.Error()})
			continue
		}
		ut, err := parseStoredTime(updated)
		if err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: "updated_at: " + err.Error()})
			continue
		}
		s := byID[id]
		if s == nil {
			s = &state{m: capture.StoredMemory{SourceID: id, Importance: math.NaN(), Position: pos, CreatedAt: ct}}
			byID[id] = s
			order = append(order, id)
		}
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
		switch {
		case newText.Valid && newText.String != "":
			s.text = newText.String
		case s.text == "" && oldText.Valid:
			s.text = oldText.String
		}
		s.deleted = deleted != 0 || event == "DELETE"
		ev := map[string]any{"event": event, "row": rowid}
		if !last.IsZero() {
			ev["at"] = last.Format("2006-01-02T15:04:05Z07:00")
		}
		if actor != "" {
			ev["actor_id"] = actor
		}
		if ro != "" {
			ev["role"] = ro
		}
		s.events = append(s.events, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, bad, fmt.Errorf("read %s: %w", path, err)
	}
	out := make([]capture.StoredMemory, 0, len(order))
	for _, id := range order {
		s := byID[id]
		s.m.Text, s.m.Deleted = s.text, s.deleted
		s.m.Metadata = map[string]any{"mem0_events": s.events}
		if s.text == "" {
			bad = append(bad, capture.RecordError{Position: s.m.Position, Error: fmt.Sprintf("memory %q has no text in any event", id)})
			continue
		}
		out = append(out, s.m)
	}
	return out, bad, nil
}
