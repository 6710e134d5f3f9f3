package store_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/store"
	"memtrace/store/colfile"
)

// cfMemory is memory i of the column file tests: its fields vary (status,
// tier, type, session, supersession, null and set times, a hash that is not
// one).
func cfMemory(i int) *engine.Memory {
	m := newMemory(fmt.Sprintf("cf%d", i), fmt.Sprintf("memory %d 기억 %d", i, i*i))
	m.Session = fmt.Sprintf("s%d", i/7)
	m.Importance = float64(i%9) / 8
	m.CreatedAt = at(i % 40).Add(time.Duration(i) * time.Millisecond)
	m.Type = engine.Types()[i%len(engine.Types())]
	if i%5 == 0 {
		m.Status, m.OrigType = engine.StatusQuarantined, "note"
	}
	if i%6 == 0 {
		m.Tier = engine.TierHot
	}
	if i%11 == 0 {
		m.Key = ""
	}
	if i%13 == 0 {
		m.Hash = "imported-hash-" + fmt.Sprint(i)
	}
	return m
}

// cfLoad is every memory a load reads, with the column file (on) or
// without it (off: every column read from SQLite).
func cfLoad(t *testing.T, path, file string) []*engine.Memory {
	t.Helper()
	t.Setenv(colfile.FileEnv, file)
	db, err := store.Open(context.Background(), path, nil)
	must(t, err)
	defer db.Close()
	var ms []*engine.Memory
	must(t, db.ForEachMemory(context.Background(), func(m *engine.Memory) error {
		ms = append(ms, m)
		return nil
	}))
	return ms
}

func sameLoads(t *testing.T, when string, got, want []*engine.Memory) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d memories over the column file, %d without", when, len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: memory %d over the column file differs:\n got %+v\nwant %+v", when, want[i].ID, got[i], want[i])
		}
	}
}

// A load over the column file reads every memory exactly as a load of
// every column does: as written, after another process's writes (rows
// added, rewritten, one changed under the same seq as a restore could),
// and after an erase, which removes the file; the file written next holds
// nothing of the erased memory.
func TestColumnFileLoadMatchesFullLoad(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cf.db")
	file := path + colfile.Suffix
	t.Setenv(colfile.FileEnv, "on")
	db, err := store.Open(ctx, path, newClock().Now)
	must(t, err)
	var ms []*engine.Memory
	must(t, db.Update(ctx, func(q engine.Queries) error {
		for i := range 600 {
			m := cfMemory(i)
			if err := q.InsertMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
				return err
			}
			ms = append(ms, m)
		}
		return nil
	}))
	old := ms[40]
	old.SupersededBy, old.ValidTo, old.SupersededAt = ms[41].ID, at(3), at(4)
	must(t, db.UpdateMemory(ctx, old, engine.Actor{Name: "test"}, "supersede"))
	db.Close()

	full := cfLoad(t, path, "off")
	if _, err := os.Lstat(file); !os.IsNotExist(err) {
		t.Fatalf("a load with the file off wrote it: %v", err)
	}
	sameLoads(t, "the load that writes the file", cfLoad(t, path, "on"), full)
	f, err := colfile.Open(file)
	if err != nil {
		t.Fatalf("no column file after a load: %v", err)
	}
	if f.Rows() != 600 {
		t.Fatalf("the file holds %d rows", f.Rows())
	}
	f.Close()
	sameLoads(t, "as written", cfLoad(t, path, "on"), full)

	// Another process adds memories, rewrites some, and one row's content
	// changes under its seq.
	t.Setenv(colfile.FileEnv, "off")
	db, err = store.Open(ctx, path, newClock().Now)
	must(t, err)
	for i := 600; i < 620; i++ {
		must(t, db.InsertMemory(ctx, cfMemory(i), engine.Actor{Name: "other"}))
	}
	for _, i := range []int{0, 7, 333, 599} {
		m := ms[i]
		m.Content, m.Hash = m.Content+" (edited)", engine.ContentHash(m.Content+" (edited)")
		m.AccessCount, m.Status = 9, engine.StatusArchived
		must(t, db.UpdateMemory(ctx, m, engine.Actor{Name: "other"}, "edit"))
	}
	db.Close()
	execRaw(t, nil, path, `UPDATE memories SET content = 'memory 9 기억 81!', access_count = 77 WHERE id = ?`, ms[9].ID)
	before, _ := os.ReadFile(file)
	full = cfLoad(t, path, "off")
	sameLoads(t, "after another process wrote", cfLoad(t, path, "on"), full)
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("25 changed rows of 620 rewrote the file; the test wants them read beside it")
	}

	// An erase removes the file; the next load writes it without the
	// erased memory.
	t.Setenv(colfile.FileEnv, "on")
	db, err = store.Open(ctx, path, newClock().Now)
	must(t, err)
	secret := newMemory("secret-key-zq", "the vault code is 4711")
	secret.Session = "secret-session-zq"
	must(t, db.InsertMemory(ctx, secret, engine.Actor{Name: "test"}))
	db.Close()
	must(t, colfile.Remove(file))
	cfLoad(t, path, "on")
	raw, err := os.ReadFile(file)
	if err != nil || !bytes.Contains(raw, []byte("secret-session-zq")) {
		t.Fatalf("the rewritten file lacks the new memory (%v)", err)
	}
	db, err = store.Open(ctx, path, newClock().Now)
	must(t, err)
	rep, err := db.EraseMemories(ctx, engine.EraseRequest{IDs: []int64{secret.ID}, Actor: "curator", Reason: "asked"})
	must(t, err)
	db.Close()
	if _, err := os.Lstat(file); !os.IsNotExist(err) {
		t.Fatalf("the column file is there after an erase: %v (report %+v)", err, rep.Compaction)
	}
	full = cfLoad(t, path, "off")
	sameLoads(t, "after an erase", cfLoad(t, path, "on"), full)
	raw, err = os.ReadFile(file)
	if err != nil {
		t.Fatalf("no column file written after the erase: %v", err)
	}
	sum, _ := hex.DecodeString(secret.Hash)
	if bytes.Contains(raw, sum) || bytes.Contains(raw, []byte(secret.Hash)) {
		t.Fatal("the column file holds the erased memory's hash")
	}
	for _, m := range full {
		if m.ID != secret.ID {
			continue
		}
		// Only what the database itself still holds of the row may be in
		// the file.
		for _, s := range []string{secret.Key, secret.Session} {
			if m.Key != s && m.Session != s && bytes.Contains(raw, []byte(s)) {
				t.Fatalf("the column file holds the erased memory's %q", s)
			}
		}
	}
	sameLoads(t, "over the file written after the erase", cfLoad(t, path, "on"), full)
}
