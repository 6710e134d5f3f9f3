// The sources fixture writes one population of an agent's memories in the
// on-disk formats of the stores `memtrace import memories` reads — a Chroma
// persistent directory, a mem0 history database, OpenClaw/Claude Code
// memory files and the generic JSONL — so that the tests can check that
// every source imports the same memories and that the audit counts the
// noise the population was built with. The formats follow the projects'
// own schemas (Chroma's metadb/sysdb migrations, mem0's SQLiteManager).
package cli

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

// sourceMemory is one memory of the population.
type sourceMemory struct {
	ID   string
	Text string
	// Family is the noise pattern it was written as ("" for a genuine
	// memory).
	Family string
	// Label is the label prefix it carries as written ("MILESTONE:love"),
	// "" for none.
	Label string
	At    time.Time
}

// sourceNoiseCounts is how many memories of each noise family the population
// holds: the counts `memtrace audit` must report.
var sourceNoiseCounts = map[string]int{
	"heartbeat_ok":          12,
	"no_reply":              10,
	"too_short":             20,
	"error_log_line":        15,
	"gateway_restart":       8,
	"compacted_placeholder": 6,
	"self_limitation_en":    7,
	"self_limitation_ko":    7,
	// Questions and requests with nothing to remember once the filler is
	// stripped.
	"too_short_stripped": 4,
}

// sourceLabelCounts is the label-prefix census of the population.
var sourceLabelCounts = map[string]int{
	"MILESTONE:love": 10,
	"MILESTONE:work": 8,
	"preference":     7,
	"관계 이정표":         5,
}

// sourceExactDuplicates is how many memories repeat an earlier one's text.
const sourceExactDuplicates = 11 + 9 + 10

// sourceDeleted is how many extra memories the mem0 fixture holds that mem0
// deleted (imported quarantined, so outside the audit of active memories).
const sourceDeleted = 6

var sourceBase = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// sourcePopulation returns the memories, in id order.
func sourcePopulation() []sourceMemory {
	var out []sourceMemory
	add := func(text, family, label string) {
		n := len(out) + 1
		out = append(out, sourceMemory{ID: fmt.Sprintf("mem-%04d", n), Text: text, Family: family, Label: label,
			At: sourceBase.Add(time.Duration(n) * 7 * time.Hour)})
	}
	for i := 0; i < 12; i++ {
		add("HEARTBEAT_OK", "heartbeat_ok", "")
	}
	for i := 0; i < 10; i++ {
		add("NO_REPLY", "no_reply", "")
	}
	for _, s := range []string{"ok", "thanks!", "네 알겠습니다", "ㅋㅋㅋ", "👍", "hm", "Got it, thanks!", "감사합니다!", "yes", "sure"} {
		add(s, "too_short", "")
		add(s, "too_short", "")
	}
	for i := 1; i <= 15; i++ {
		add(fmt.Sprintf("Error: ENOENT: no such file or directory, open 'config-%d.yaml'", i), "error_log_line", "")
	}
	for i := 1; i <= 8; i++ {
		add(fmt.Sprintf("Gateway restarted, reconnecting… (attempt %d)", i), "gateway_restart", "")
	}
	for i := 1; i <= 6; i++ {
		add(fmt.Sprintf("[compacted: %d messages]", 10+i), "compacted_placeholder", "")
	}
	for _, s := range []string{
		"I'm sorry, but as an AI I don't have access to your files.",
		"I'm sorry, but as an AI I cannot browse the internet.",
		"As an AI language model, I don't have personal opinions.",
		"I'm sorry, but as an AI I can't remember previous conversations.",
		"As an AI, I don't have the ability to see images.",
		"I'm sorry, but as an AI I cannot make phone calls.",
		"As an AI language model, I can't access your calendar.",
	} {
		add(s, "self_limitation_en", "")
	}
	for _, s := range []string{
		"죄송하지만 저는 AI라서 파일에 접근할 수 없어요.",
		"죄송하지만 저는 AI라서 인터넷을 검색할 수 없어요.",
		"죄송하지만 저는 AI라서 이전 대화를 기억할 수 없어요.",
		"죄송하지만 저는 AI라서 이미지를 볼 수 없어요.",
		"죄송하지만 저는 AI라서 전화를 걸 수 없어요.",
		"죄송하지만 저는 AI라서 일정에 접근할 수 없어요.",
		"죄송하지만 저는 AI라서 개인적인 의견이 없어요.",
	} {
		add(s, "self_limitation_ko", "")
	}
	// Genuine memories, English and Korean, some with label prefixes.
	people := []string{"Minji", "Jun", "Sora", "Daniel", "Hana", "Marcus", "Yuna", "Theo", "Eunji", "Priya"}
	cities := []string{"Busan", "Daejeon", "Chungju", "Jeonju", "Gangneung", "Sokcho", "Gyeongju", "Suwon", "Incheon", "Mokpo"}
	jobs := []string{"nurse", "architect", "pastry chef", "data engineer", "violin teacher", "pilot", "lawyer", "florist", "game designer", "vet"}
	for i := 0; i < 40; i++ {
		add(fmt.Sprintf("My friend %s moved to %s in %d and now works as a %s there.", people[i%10], cities[(i/10+i)%10], 2015+i%9, jobs[(i*3)%10]), "", "")
	}
	foods := []string{"kimchi stew", "cold noodles", "bibimbap", "tteokbokki", "pho", "ramen", "dumplings", "tacos", "paella", "bulgogi"}
	for i := 0; i < 20; i++ {
		add(fmt.Sprintf("%s은 %s을 좋아하고 %d년부터 주말마다 %s에서 요리를 배워요.", people[i%10], foods[(i*7)%10], 2010+i, cities[(i*3)%10]), "", "")
	}
	for i := 0; i < 10; i++ {
		add(fmt.Sprintf("[MILESTONE:love] We celebrated our %d-month anniversary with a dinner of %s in %s.", i+1, foods[i], cities[i]), "", "MILESTONE:love")
	}
	for i := 0; i < 8; i++ {
		add(fmt.Sprintf("[MILESTONE:work] I shipped release %d.%d of the billing service after the %s migration.", 3, i, cities[i]), "", "MILESTONE:work")
	}
	for i := 0; i < 7; i++ {
		add(fmt.Sprintf("[preference] I prefer %s over %s when I eat out with %s.", foods[i], foods[(i+3)%10], people[i]), "", "preference")
	}
	for i := 0; i < 5; i++ {
		add(fmt.Sprintf("[관계 이정표] %s와 %s에서 처음 만난 지 %d년이 되었어요.", people[i], cities[i], i+2), "", "관계 이정표")
	}
	for _, q := range []string{"Can you recommend a good book about databases?", "What is the weather like in Busan today?",
		"Could you explain how vector indexes work?", "오늘 저녁 메뉴 추천해 줄 수 있어요?"} {
		add(q, "too_short_stripped", "")
	}
	for i := 0; i < 35; i++ {
		add(fmt.Sprintf("Project note %d: the %s team decided to keep the %s dashboard because %s asked for it.", i+1, cities[i%10], foods[(i+1)%10], people[(i+4)%10]), "", "")
	}
	return out
}

// writeSourceJSONL writes the population as the generic memory JSONL to path.
func writeSourceJSONL(path string) error {
	var b strings.Builder
	for _, m := range sourcePopulation() {
		line, err := json.Marshal(map[string]any{"id": m.ID, "text": m.Text, "created_at": m.At.Format(time.RFC3339),
			"metadata": map[string]any{"source": "fixture"}})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// chromaSchema is the part of Chroma's persistent schema (sysdb and metadb
// migrations) that holds records and their metadata.
const chromaSchema = `
CREATE TABLE migrations (dir TEXT NOT NULL, version INTEGER NOT NULL, filename TEXT NOT NULL, sql TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (dir, version));
CREATE TABLE tenants (id TEXT PRIMARY KEY, name TEXT NOT NULL, UNIQUE (name));
CREATE TABLE databases (id TEXT PRIMARY KEY, name TEXT NOT NULL, tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE, UNIQUE (name));
CREATE TABLE collections (id TEXT PRIMARY KEY, name TEXT NOT NULL, dimension INTEGER, database_id TEXT NOT NULL REFERENCES databases(id) DEFAULT 'default', config_json_str TEXT, UNIQUE (name, database_id));
CREATE TABLE collection_metadata (collection_id TEXT REFERENCES collections(id) ON DELETE CASCADE, key TEXT NOT NULL, str_value TEXT, int_value INTEGER, float_value REAL, bool_value INTEGER, PRIMARY KEY (collection_id, key));
CREATE TABLE segments (id TEXT PRIMARY KEY, type TEXT NOT NULL, scope TEXT NOT NULL, collection TEXT REFERENCES collections(id));
CREATE TABLE segment_metadata (segment_id TEXT REFERENCES segments(id) ON DELETE CASCADE, key TEXT NOT NULL, str_value TEXT, int_value INTEGER, float_value REAL, PRIMARY KEY (segment_id, key));
CREATE TABLE embeddings (id INTEGER PRIMARY KEY, segment_id TEXT NOT NULL, embedding_id TEXT NOT NULL, seq_id BLOB NOT NULL, created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, UNIQUE (segment_id, embedding_id));
CREATE TABLE embedding_metadata (id INTEGER REFERENCES embeddings(id), key TEXT NOT NULL, string_value TEXT, int_value INTEGER, float_value REAL, bool_value INTEGER, PRIMARY KEY (id, key));
CREATE TABLE max_seq_id (segment_id TEXT PRIMARY KEY, seq_id BLOB NOT NULL);
CREATE TABLE embeddings_queue (seq_id INTEGER PRIMARY KEY, created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, operation INTEGER NOT NULL, topic TEXT NOT NULL, id TEXT NOT NULL, vector BLOB, encoding TEXT, metadata TEXT);
INSERT INTO tenants (id, name) VALUES ('default_tenant', 'default_tenant');
INSERT INTO databases (id, name, tenant_id) VALUES ('00000000-0000-0000-0000-000000000000', 'default_database', 'default_tenant');
`

// writeSourceChroma writes the population as a Chroma persistent directory
// (dir/chroma.sqlite3): one collection "agent_memories", its metadata
// segment, a record per memory with the text under chroma:document and a
// "type" of "milestone" for the milestone-labelled ones.
func writeSourceChroma(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, "chroma.sqlite3"))
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(chromaSchema); err != nil {
		return fmt.Errorf("chroma schema: %w", err)
	}
	const coll, seg, vseg = "5f1c7a54-0000-4000-8000-00000000c011", "5f1c7a54-0000-4000-8000-0000000005e9", "5f1c7a54-0000-4000-8000-0000000007ec"
	if _, err := db.Exec(`INSERT INTO collections (id, name, dimension, database_id) VALUES (?, 'agent_memories', 384, '00000000-0000-0000-0000-000000000000');
		INSERT INTO segments (id, type, scope, collection) VALUES (?, 'urn:chroma:segment/metadata/sqlite', 'METADATA', ?), (?, 'urn:chroma:segment/vector/hnsw-local-persisted', 'VECTOR', ?)`,
		coll, seg, coll, vseg, coll); err != nil {
		return fmt.Errorf("chroma collection: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	for i, m := range sourcePopulation() {
		res, err := tx.Exec(`INSERT INTO embeddings (segment_id, embedding_id, seq_id, created_at) VALUES (?, ?, ?, ?)`,
			seg, m.ID, []byte{0, 0, 0, 0, 0, 0, 0, byte(i % 256)}, m.At.Format("2006-01-02 15:04:05"))
		if err != nil {
			return err
		}
		id, _ := res.LastInsertId()
		meta := [][3]any{{"chroma:document", m.Text, nil}, {"source", "agent", nil}, {"turn", nil, int64(i)}}
		if strings.HasPrefix(m.Label, "MILESTONE") {
			meta = append(meta, [3]any{"type", "milestone", nil})
		}
		for _, kv := range meta {
			if _, err := tx.Exec(`INSERT INTO embedding_metadata (id, key, string_value, int_value) VALUES (?, ?, ?, ?)`, id, kv[0], kv[1], kv[2]); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// writeSourceMem0 writes the population as a mem0 history database at path: an
// ADD event per memory (every fifth genuine one changed by a later UPDATE
// from an older wording), and sourceDeleted extra memories added then deleted.
func writeSourceMem0(path string) error {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE history (id TEXT PRIMARY KEY, memory_id TEXT, old_memory TEXT, new_memory TEXT, event TEXT,
		created_at DATETIME, updated_at DATETIME, is_deleted INTEGER, actor_id TEXT, role TEXT);
		CREATE TABLE messages (id TEXT PRIMARY KEY, session_scope TEXT, role TEXT, content TEXT, name TEXT, created_at DATETIME)`); err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	n := 0
	ins := func(memID string, old, new any, event string, created, updated time.Time, deleted int) error {
		n++
		var upd any
		if !updated.IsZero() {
			upd = updated.Format("2006-01-02T15:04:05.000000+00:00")
		}
		_, err := tx.Exec(`INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'user-1', 'user')`,
			fmt.Sprintf("9d0e%04d-0000-4000-8000-000000000000", n), memID, old, new, event,
			created.Format("2006-01-02T15:04:05.000000+00:00"), upd, deleted)
		return err
	}
	for i, m := range sourcePopulation() {
		if m.Family == "" && i%5 == 0 {
			older := "Earlier wording: " + m.Text
			if err := ins(m.ID, nil, older, "ADD", m.At, time.Time{}, 0); err != nil {
				return err
			}
			if err := ins(m.ID, older, m.Text, "UPDATE", m.At, m.At.Add(time.Hour), 0); err != nil {
				return err
			}
			continue
		}
		if err := ins(m.ID, nil, m.Text, "ADD", m.At, time.Time{}, 0); err != nil {
			return err
		}
	}
	for i := 0; i < sourceDeleted; i++ {
		id := fmt.Sprintf("gone-%02d", i)
		text := fmt.Sprintf("I used to keep my spare key under flowerpot number %d.", i+1)
		at := sourceBase.Add(time.Duration(i) * 24 * time.Hour)
		if err := ins(id, nil, text, "ADD", at, time.Time{}, 0); err != nil {
			return err
		}
		if err := ins(id, text, nil, "DELETE", at, at.Add(48*time.Hour), 1); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// writeSourceMemoryFiles writes the population as OpenClaw-style memory files
// under dir: MEMORY.md holds the labelled and project memories as a list
// under headings, memory/YYYY-MM-DD.md daily logs hold the rest (one list
// item each, dated by the file), and CLAUDE.md holds a short rule list that
// is not part of the population (ExtraFileEntries).
func writeSourceMemoryFiles(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		return err
	}
	var long strings.Builder
	long.WriteString("---\ntitle: long-term memory\n---\n# Long-term memory\n\n")
	daily := map[string]*strings.Builder{}
	var days []string
	for _, m := range sourcePopulation() {
		if m.Label != "" || strings.HasPrefix(m.Text, "Project note") {
			fmt.Fprintf(&long, "- %s\n", m.Text)
			continue
		}
		day := m.At.Format("2006-01-02")
		b := daily[day]
		if b == nil {
			b = &strings.Builder{}
			fmt.Fprintf(b, "# %s\n\n", day)
			daily[day] = b
			days = append(days, day)
		}
		fmt.Fprintf(b, "- %s\n", m.Text)
	}
	if err := os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(long.String()), 0o644); err != nil {
		return err
	}
	for _, d := range days {
		if err := os.WriteFile(filepath.Join(dir, "memory", d+".md"), []byte(daily[d].String()), 0o644); err != nil {
			return err
		}
	}
	claude := "# Project rules\n\n```sh\ngo test ./...\n```\n\n- Always run gofmt and go vet before committing any Go code.\n- 커밋 메시지는 항상 영어로 쓰고 첫 줄에 무엇을 바꿨는지 적는다.\n"
	return os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte(claude), 0o644)
}

// sourceExtraFileEntries is how many entries WriteMemoryFiles adds beyond the
// population (CLAUDE.md's rules).
const sourceExtraFileEntries = 2
