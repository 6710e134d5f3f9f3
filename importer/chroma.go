package importer

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"memtrace/capture"
	"memtrace/engine"
)

// chromaDocumentKey is the metadata key under which Chroma keeps a
// record's document text.
const chromaDocumentKey = "chroma:document"

// ReadChroma reads a Chroma persistent directory (or its chroma.sqlite3):
// every record of every collection, its document text (metadata key
// chroma:document), the rest of its metadata, and its collection. Chroma
// keeps the vectors in its own index files; memtrace embeds the text with
// its own embedder instead. The record's embedding id is its key; a type,
// importance or time kept in the metadata (type/label/category,
// importance, created_at/timestamp) is used as such, everything else is
// kept as metadata.
func ReadChroma(path string) ([]capture.StoredMemory, []capture.RecordError, error) {
	file := path
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		file = filepath.Join(path, "chroma.sqlite3")
	}
	db, err := openForeignSQLite(file)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	tables, err := tablesOf(db)
	if err != nil {
		return nil, nil, err
	}
	if !tables["embeddings"] || !tables["embedding_metadata"] {
		return nil, nil, engine.Errorf(engine.EINVALID, "%s is not a Chroma store: it has no embeddings and embedding_metadata tables", file)
	}
	cols, err := columnsOf(db, "embedding_metadata")
	if err != nil {
		return nil, nil, err
	}
	boolCol := "NULL"
	if cols["bool_value"] {
		boolCol = "m.bool_value"
	}
	collection := "''"
	join := ""
	if tables["segments"] && tables["collections"] {
		collection = "COALESCE(c.name, '')"
		join = "LEFT JOIN segments s ON s.id = e.segment_id LEFT JOIN collections c ON c.id = s.collection"
	}
	lists, err := chromaLists(db, tables)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", file, err)
	}
	rows, err := db.Query(`SELECT e.id, e.embedding_id, COALESCE(CAST(e.created_at AS TEXT), ''), ` + collection + `,
		m.key, m.string_value, m.int_value, m.float_value, ` + boolCol + `
		FROM embeddings e ` + join + `
		LEFT JOIN embedding_metadata m ON m.id = e.id
		ORDER BY e.id, m.key`)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", file, err)
	}
	defer rows.Close()
	var out []capture.StoredMemory
	var bad []capture.RecordError
	var cur *chromaRecord
	flush := func() {
		if cur == nil {
			return
		}
		m, problem := cur.memory()
		if problem != "" {
			bad = append(bad, capture.RecordError{Position: cur.position(), Error: problem})
		} else {
			out = append(out, m)
		}
		cur = nil
	}
	for rows.Next() {
		var (
			rowid                int64
			embID, created, coll string
			key, str             sql.NullString
			iv                   sql.NullInt64
			fv                   sql.NullFloat64
			bv                   sql.NullInt64
		)
		if err := rows.Scan(&rowid, &embID, &created, &coll, &key, &str, &iv, &fv, &bv); err != nil {
			return out, bad, fmt.Errorf("read %s: %w", file, err)
		}
		if cur == nil || cur.rowid != rowid {
			flush()
			cur = &chromaRecord{rowid: rowid, id: embID, created: created, collection: coll, meta: map[string]any{}}
			for k, v := range lists[rowid] {
				cur.meta[k] = v
			}
		}
		if !key.Valid {
			continue
		}
		switch {
		case key.String == chromaDocumentKey:
			cur.doc, cur.hasDoc = str.String, str.Valid
		case str.Valid:
			cur.meta[key.String] = str.String
		case iv.Valid:
			cur.meta[key.String] = iv.Int64
		case fv.Valid:
			cur.meta[key.String] = fv.Float64
		case bv.Valid:
			cur.meta[key.String] = bv.Int64 != 0
		}
	}
	if err := rows.Err(); err != nil {
		return out, bad, fmt.Errorf("read %s: %w", file, err)
	}
	flush()
	return out, bad, nil
}

type chromaRecord struct {
	rowid                   int64
	id, created, collection string
	doc                     string
	hasDoc                  bool
	meta                    map[string]any
}

func (r *chromaRecord) position() string {
	p := "row " + strconv.FormatInt(r.rowid, 10)
	if r.collection != "" {
		p += " of collection " + r.collection
	}
	return p
}

func (r *chromaRecord) memory() (capture.StoredMemory, string) {
	text := r.doc
	if !r.hasDoc || strings.TrimSpace(text) == "" {
		// mem0 adds its records without documents: collection.add(ids,
		// embeddings, metadatas), the text under metadata key "data".
		data, ok := r.meta[mem0DataKey].(string)
		if !ok || strings.TrimSpace(data) == "" {
			return capture.StoredMemory{}, fmt.Sprintf("record %q has no text: neither a document (%s) nor mem0's metadata key %q", r.id, chromaDocumentKey, mem0DataKey)
		}
		text = data
		delete(r.meta, mem0DataKey)
		// mem0's lower-cased BM25 copy of data: neither text nor a memory.
		delete(r.meta, "text_lemmatized")
	}
	m := capture.StoredMemory{SourceID: r.id, Text: text, Importance: math.NaN(), Position: r.position(), Metadata: r.meta}
	if u, ok := r.meta["user_id"].(string); ok {
		m.Owner = strings.TrimSpace(u)
	}
	if r.collection != "" {
		r.meta["collection"] = r.collection
	}
	for _, k := range []string{"type", "label", "category", "memory_type"} {
		if s, ok := r.meta[k].(string); ok && strings.TrimSpace(s) != "" {
			m.Type = s
			break
		}
	}
	switch v := r.meta["importance"].(type) {
	case float64:
		m.Importance = v
	case int64:
		m.Importance = float64(v)
	}
	created := r.created
	for _, k := range []string{"created_at", "timestamp", "date"} {
		switch v := r.meta[k].(type) {
		case string:
			created = v
		case int64:
			created = strconv.FormatInt(v, 10)
		case float64:
			created = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			continue
		}
		break
	}
	t, err := parseStoredTime(created)
	if err != nil {
		return m, fmt.Sprintf("record %q: created_at: %v", r.id, err)
	}
	m.CreatedAt = t
	if s, ok := r.meta["last_accessed_at"].(string); ok {
		if m.LastAccessedAt, err = parseStoredTime(s); err != nil {
			return m, fmt.Sprintf("record %q: last_accessed_at: %v", r.id, err)
		}
	}
	return m, ""
}

// mem0DataKey is the metadata key mem0 keeps a memory's text under, in
// every vector store (Chroma, Qdrant payloads).
const mem0DataKey = "data"

// chromaListTables are where Chroma keeps list-valued metadata, one row per
// element in list order: embedding_metadata_array since Chroma 1.5.0
// (metadb migration 00006); embedding_metadata_lists is read the same way
// if a store has it. Chroma before 1.5 rejects list metadata and has
// neither table.
var chromaListTables = []string{"embedding_metadata_array", "embedding_metadata_lists"}

// chromaLists reads the list-valued metadata by embeddings row: key → the
// elements in row order, each with its type (string, int64, float64, bool).
func chromaLists(db *sql.DB, tables map[string]bool) (map[int64]map[string][]any, error) {
	out := map[int64]map[string][]any{}
	for _, table := range chromaListTables {
		if !tables[table] {
			continue
		}
		cols, err := columnsOf(db, table)
		if err != nil {
			return nil, err
		}
		boolCol := "NULL"
		if cols["bool_value"] {
			boolCol = "bool_value"
		}
		rows, err := db.Query(`SELECT id, key, string_value, int_value, float_value, ` + boolCol + ` FROM ` + table + ` ORDER BY rowid`)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", table, err)
		}
		for rows.Next() {
			var (
				id  int64
				key string
				str sql.NullString
				iv  sql.NullInt64
				fv  sql.NullFloat64
				bv  sql.NullInt64
			)
			if err := rows.Scan(&id, &key, &str, &iv, &fv, &bv); err != nil {
				rows.Close()
				return nil, fmt.Errorf("%s: %w", table, err)
			}
			var v any
			switch {
			case str.Valid:
				v = str.String
			case iv.Valid:
				v = iv.Int64
			case fv.Valid:
				v = fv.Float64
			case bv.Valid:
				v = bv.Int64 != 0
			default:
				continue
			}
			if out[id] == nil {
				out[id] = map[string][]any{}
			}
			out[id][key] = append(out[id][key], v)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", table, err)
		}
	}
	return out, nil
}
