package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"memtrace/capture"
	"memtrace/engine"
)

// isJSONFile reports whether path is a JSON document (its first
// non-blank byte opens an object or an array) rather than a SQLite file.
func isJSONFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	t := bytes.TrimLeft(bytes.TrimPrefix(head[:n], []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// isMem0Export reports whether path is a JSON document shaped like a mem0
// export: an object with a "results" array.
func isMem0Export(path string) bool {
	if !isJSONFile(path) {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var env struct {
		Results json.RawMessage `json:"results"`
	}
	return json.Unmarshal(b, &env) == nil && bytes.HasPrefix(bytes.TrimSpace(env.Results), []byte("["))
}

// mem0Item is one memory of a mem0 export: MemoryItem of mem0's
// mem0/configs/base.py (id, memory, hash, metadata, created_at, updated_at)
// with the keys Memory.get_all() promotes beside it (user_id, agent_id,
// run_id, actor_id, role), or a result of the hosted API's get-memories
// (id, memory, expiration_date, created_at, updated_at, categories).
type mem0Item struct {
	ID         json.RawMessage `json:"id"`
	Memory     *string         `json:"memory"`
	Hash       string          `json:"hash"`
	Metadata   map[string]any  `json:"metadata"`
	CreatedAt  string          `json:"created_at"`
	UpdatedAt  string          `json:"updated_at"`
	Expiration *string         `json:"expiration_date"`
	Categories []string        `json:"categories"`
	UserID     string          `json:"user_id"`
	AgentID    string          `json:"agent_id"`
	RunID      string          `json:"run_id"`
	ActorID    string          `json:"actor_id"`
	Role       string          `json:"role"`
}

// readMem0Export reads what mem0 returns for all memories: the open-source
// Memory.get_all() value {"results": [MemoryItem…]}, the hosted API's
// paginated envelope {"count", "next", "previous", "results"}, or a bare
// array of either's results. text = memory, owner = user_id (the hosted
// shape has none, and none is invented); the rest is metadata.
func readMem0Export(path string) ([]capture.StoredMemory, []capture.RecordError, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var items []json.RawMessage
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		err = json.Unmarshal(t, &items)
	} else {
		var env struct {
			Results []json.RawMessage `json:"results"`
			Next    *string           `json:"next"`
		}
		err = json.Unmarshal(t, &env)
		items = env.Results
		if err == nil && env.Results == nil {
			err = errors.New(`no "results" array`)
		}
	}
	if err != nil {
		return nil, nil, engine.Errorf(engine.EINVALID, "%s is not a mem0 export (get_all's {\"results\": [...]}): %v", path, err)
	}
	var out []capture.StoredMemory
	var bad []capture.RecordError
	for i, raw := range items {
		pos := "result " + strconv.Itoa(i+1)
		var it mem0Item
		if err := json.Unmarshal(raw, &it); err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: "not a mem0 memory: " + strings.TrimPrefix(err.Error(), "json: ")})
			continue
		}
		id, err := scalarID(it.ID)
		if err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: err.Error()})
			continue
		}
		if it.Memory == nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: fmt.Sprintf("memory %q has no \"memory\" text", id)})
			continue
		}
		m := capture.StoredMemory{SourceID: id, Text: *it.Memory, Importance: math.NaN(), Position: pos, Owner: it.UserID,
			Metadata: map[string]any{}}
		for k, v := range it.Metadata {
			m.Metadata[k] = v
		}
		for k, v := range map[string]string{"hash": it.Hash, "agent_id": it.AgentID, "run_id": it.RunID, "actor_id": it.ActorID,
			"role": it.Role, "updated_at": it.UpdatedAt} {
			if v != "" {
				m.Metadata[k] = v
			}
		}
		if it.Expiration != nil {
			m.Metadata["expiration_date"] = *it.Expiration
		}
		if it.Categories != nil {
			m.Metadata["categories"] = it.Categories
		}
		if m.CreatedAt, err = parseStoredTime(it.CreatedAt); err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: "created_at: " + err.Error()})
			continue
		}
		if m.LastAccessedAt, err = parseStoredTime(it.UpdatedAt); err != nil {
			bad = append(bad, capture.RecordError{Position: pos, Error: "updated_at: " + err.Error()})
			continue
		}
		out = append(out, m)
	}
	return out, bad, nil
}

// ReadMem0Payloads reads the points of mem0's vector store, by id: JSON
// Lines of {"id", "payload": {data, hash, created_at, updated_at, user_id,
// agent_id, run_id, actor_id, role}} as a Qdrant scroll returns them
// (Qdrant is mem0's default store), or one JSON document holding them — a
// scroll response {"result": {"points": [...]}} or a bare array.
func ReadMem0Payloads(path string) (map[string]map[string]any, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, errSymlink(path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	type point struct {
		ID      json.RawMessage `json:"id"`
		Payload map[string]any  `json:"payload"`
	}
	var points []point
	t := bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	var doc struct {
		Result struct {
			Points []point `json:"points"`
		} `json:"result"`
	}
	switch {
	case len(t) > 0 && t[0] == '[' && json.Unmarshal(t, &points) == nil:
	case json.Unmarshal(t, &doc) == nil && doc.Result.Points != nil:
		points = doc.Result.Points
	default:
		sc := bufio.NewScanner(bytes.NewReader(t))
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			var p point
			if err := json.Unmarshal(line, &p); err != nil {
				return nil, engine.Errorf(engine.EINVALID, "%s line %d is not a vector-store point {\"id\", \"payload\"}: %v", path, n, err)
			}
			points = append(points, p)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	out := make(map[string]map[string]any, len(points))
	for i, p := range points {
		id, err := scalarID(p.ID)
		if err != nil {
			return nil, engine.Errorf(engine.EINVALID, "%s point %d: %v", path, i+1, err)
		}
		out[id] = p.Payload
	}
	return out, nil
}
