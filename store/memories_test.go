package store_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

func TestMemories(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		t.Run("InsertGetRoundTrip", func(t *testing.T) {
			db := b.MustOpenClock(t, newClock().Now)
			m := newMemory("msg-1", "저는 아침에 커피 대신 녹차를 마셔요")
			m.OrigType = "note"
			must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "capture", Batch: "ingest-1"}))
			if m.ID == 0 || m.Seq == 0 {
				t.Fatalf("insert set ID=%d Seq=%d", m.ID, m.Seq)
			}
			got, err := db.GetMemory(t.Context(), m.ID)
			must(t, err)
			if !reflect.DeepEqual(got, m) {
				t.Fatalf("round trip:\n got %+v\nwant %+v", got, m)
			}
			byKey, err := db.GetMemoryByKey(t.Context(), "msg-1")
			must(t, err)
			if !reflect.DeepEqual(byKey, m) {
				t.Fatalf("by key:\n got %+v\nwant %+v", byKey, m)
			}
		})
		t.Run("ZeroTimesAndNoEmbedding", func(t *testing.T) {
			db := b.MustOpen(t)
			m := &engine.Memory{Content: "bare"}
			must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "test"}))
			got, err := db.GetMemory(t.Context(), m.ID)
			must(t, err)
			if !reflect.DeepEqual(got, m) {
				t.Fatalf("round trip:\n got %+v\nwant %+v", got, m)
			}
		})
		t.Run("NonUTCTimesStoredAsUTC", func(t *testing.T) {
			db := b.MustOpen(t)
			seoul := time.FixedZone("KST", 9*3600)
			m := newMemory("", "x")
			m.CreatedAt = time.Date(2026, 3, 1, 9, 0, 0, 1, seoul)
			must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "test"}))
			got, err := db.GetMemory(t.Context(), m.ID)
			must(t, err)
			if !got.CreatedAt.Equal(m.CreatedAt) || got.CreatedAt.Location() != time.UTC {
				t.Fatalf("created_at = %v, want %v in UTC", got.CreatedAt, m.CreatedAt)
			}
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			db := b.MustOpen(t)
			_, err := db.GetMemory(t.Context(), 42)
			wantCode(t, err, engine.ENOTFOUND)
			if err.Error() != "memory 42 not found" {
				t.Fatalf("message = %q", err)
			}
			_, err = db.GetMemoryByKey(t.Context(), "nope")
			wantCode(t, err, engine.ENOTFOUND)
			m := newMemory("", "x")
			m.ID = 42
			wantCode(t, db.UpdateMemory(t.Context(), m, engine.Actor{Name: "t"}, "edit"), engine.ENOTFOUND)
			wantCode(t, db.RecordAccess(t.Context(), 42, at(3)), engine.ENOTFOUND)
			wantCode(t, db.SetBoost(t.Context(), 42, 1, at(3)), engine.ENOTFOUND)
		})
		t.Run("ErrDuplicateKey", func(t *testing.T) {
			db := b.MustOpen(t)
			must(t, db.InsertMemory(t.Context(), newMemory("k", "a"), engine.Actor{Name: "t"}))
			err := db.InsertMemory(t.Context(), newMemory("k", "b"), engine.Actor{Name: "t"})
			wantCode(t, err, engine.ECONFLICT)
			if strings.Contains(err.Error(), "UNIQUE") {
				t.Fatalf("driver text leaked: %v", err)
			}
			// Memories without a key never collide.
			must(t, db.InsertMemory(t.Context(), newMemory("", "c"), engine.Actor{Name: "t"}))
			must(t, db.InsertMemory(t.Context(), newMemory("", "d"), engine.Actor{Name: "t"}))
		})
		t.Run("ErrNoActor", func(t *testing.T) {
			db := b.MustOpen(t)
			wantCode(t, db.InsertMemory(t.Context(), newMemory("", "a"), engine.Actor{}), engine.EINVALID)
		})
		t.Run("UpdateAudited", func(t *testing.T) {
			clock := newClock()
			db := b.MustOpenClock(t, clock.Now)
			m := newMemory("k1", "I like jazz")
			must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "capture"}))
			before := *m
			m.Content, m.Type, m.Status, m.OrigType = "I like bebop", "habit", engine.StatusQuarantined, "preference"
			m.Embedding = []float32{1, 2, 3, 4}
			must(t, db.UpdateMemory(t.Context(), m, engine.Actor{Name: "curator", Batch: "b1"}, "retype"))
			if m.Seq <= before.Seq {
				t.Fatalf("seq did not increase: %d -> %d", before.Seq, m.Seq)
			}
			got, err := db.GetMemory(t.Context(), m.ID)
			must(t, err)
			if !reflect.DeepEqual(got, m) {
				t.Fatalf("after update:\n got %+v\nwant %+v", got, m)
			}
			audit, err := db.AuditForMemory(t.Context(), m.ID)
			must(t, err)
			if len(audit) != 2 {
				t.Fatalf("audit rows = %d, want 2", len(audit))
			}
			create, edit := audit[0], audit[1]
			if create.Action != "create" || create.Actor != "capture" || create.Before != nil || create.After == nil ||
				create.After.Content != "I like jazz" || create.MemoryID != m.ID {
				t.Fatalf("create row: %+v", create)
			}
			if edit.Action != "retype" || edit.Actor != "curator" || edit.Batch != "b1" {
				t.Fatalf("edit row: %+v", edit)
			}
			// Audit JSON leaves out the embedding and seq; the rest is exact.
			wantBefore, wantAfter := before, *m
			wantBefore.Embedding, wantBefore.Embedder, wantBefore.Seq = nil, "", 0
			wantAfter.Embedding, wantAfter.Embedder, wantAfter.Seq = nil, "", 0
			if !reflect.DeepEqual(*edit.Before, wantBefore) || !reflect.DeepEqual(*edit.After, wantAfter) {
				t.Fatalf("edit before/after:\n%+v\n%+v", edit.Before, edit.After)
			}
			if !edit.At.After(create.At) {
				t.Fatalf("audit times not from the clock: %v then %v", create.At, edit.At)
			}
			batch, err := db.AuditForBatch(t.Context(), "b1")
			must(t, err)
			if len(batch) != 1 || batch[0].ID != edit.ID {
				t.Fatalf("batch rows: %+v", batch)
			}
		})
		t.Run("AccessAndBoostBumpSeqUnaudited", func(t *testing.T) {
			db := b.MustOpen(t)
			m := newMemory("", "x")
			must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "t"}))
			must(t, db.RecordAccess(t.Context(), m.ID, at(10)))
			must(t, db.SetBoost(t.Context(), m.ID, 0.75, at(11)))
			got, err := db.GetMemory(t.Context(), m.ID)
			must(t, err)
			if got.AccessCount != 3 || !got.LastAccessedAt.Equal(at(10)) || got.Boost != 0.75 || !got.BoostAt.Equal(at(11)) {
				t.Fatalf("after access and boost: %+v", got)
			}
			if got.Seq != m.Seq+2 {
				t.Fatalf("seq = %d, want %d", got.Seq, m.Seq+2)
			}
			audit, err := db.AuditForMemory(t.Context(), m.ID)
			must(t, err)
			if len(audit) != 1 {
				t.Fatalf("access/boost were audited: %d rows", len(audit))
			}
		})
		t.Run("ChangedSince", func(t *testing.T) {
			db := b.MustOpen(t)
			a, b, c := newMemory("a", "a"), newMemory("b", "b"), newMemory("c", "c")
			for _, m := range []*engine.Memory{a, b, c} {
				must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "t"}))
			}
			all, high, err := db.MemoriesChangedSince(t.Context(), 0)
			must(t, err)
			if len(all) != 3 || high != c.Seq {
				t.Fatalf("since 0: %d memories, high %d", len(all), high)
			}
			must(t, db.RecordAccess(t.Context(), a.ID, at(5)))
			changed, high2, err := db.MemoriesChangedSince(t.Context(), high)
			must(t, err)
			if len(changed) != 1 || changed[0].ID != a.ID || high2 != high+1 {
				t.Fatalf("since %d: %v high %d", high, changed, high2)
			}
			none, high3, err := db.MemoriesChangedSince(t.Context(), high2)
			must(t, err)
			if len(none) != 0 || high3 != high2 {
				t.Fatalf("nothing changed, got %d, high %d", len(none), high3)
			}
		})
		t.Run("ForEachInIDOrder", func(t *testing.T) {
			db := b.MustOpen(t)
			var want []int64
			for i := range 5 {
				m := newMemory("", strings.Repeat("x", i+1))
				must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "t"}))
				want = append(want, m.ID)
			}
			var got []int64
			must(t, db.ForEachMemory(t.Context(), func(m *engine.Memory) error {
				got = append(got, m.ID)
				return nil
			}))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ids %v, want %v", got, want)
			}
		})
		// The bulk load reads the short columns packed into one; every field
		// must come back as a single-row read gives it — a field holding the
		// packing's separator too.
		t.Run("ForEachEqualsGet", func(t *testing.T) {
			db := b.MustOpen(t)
			at := time.Date(2026, 5, 1, 8, 30, 0, 123, time.UTC)
			for i, edit := range []func(m *engine.Memory){
				func(m *engine.Memory) {},
				func(m *engine.Memory) {
					m.Kind, m.Type, m.OrigType, m.Status, m.Tier = engine.KindEpisode, "milestone", "habit", engine.StatusQuarantined, engine.TierHot
					m.Scope, m.Role, m.Session, m.Importance = engine.ProjectScope("alpha"), "user", "s\x1f1", 0.75
					m.AccessCount, m.Boost, m.BoostAt, m.LastAccessedAt = 3, 0.4, at, at.Add(time.Hour)
					m.Embedding, m.Embedder = []float32{0.6, 0.8}, "test-2"
				},
				func(m *engine.Memory) { m.Type, m.Role = "odd\x1ftype", "x\x1f" },
				func(m *engine.Memory) { m.Embedding, m.Embedder = []float32{}, "empty" },
			} {
				m := newMemory(fmt.Sprintf("k%d", i), fmt.Sprintf("memory %d 사과", i))
				m.CreatedAt = at.Add(-time.Duration(i) * time.Hour)
				edit(m)
				must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "t"}))
			}
			n := 0
			must(t, db.ForEachMemory(t.Context(), func(m *engine.Memory) error {
				n++
				want, err := db.GetMemory(t.Context(), m.ID)
				must(t, err)
				if !reflect.DeepEqual(m, want) {
					t.Errorf("ForEachMemory:\n%+v\nGetMemory:\n%+v", *m, *want)
				}
				return nil
			}))
			if n != 4 {
				t.Fatalf("ForEachMemory gave %d memories, want 4", n)
			}
		})
	})
}

func TestFindMemories(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		db := b.MustOpen(t)
		mk := func(key, content string, edit func(m *engine.Memory)) *engine.Memory {
			m := newMemory(key, content)
			edit(m)
			must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "t"}))
			return m
		}
		m1 := mk("k1", "충주 사과가 맛있었다", func(m *engine.Memory) { m.Type = "shared_thing"; m.Kind = engine.KindEpisode })
		m2 := mk("k2", "I prefer 100% dark_chocolate", func(m *engine.Memory) { m.Tier = engine.TierHot })
		m3 := mk("k3", "Project Alpha ships in May", func(m *engine.Memory) {
			m.Scope = engine.ProjectScope("alpha")
			m.Status = engine.StatusArchived
			m.Session = "s2"
		})
		m4 := mk("", "quarantined noise HEARTBEAT_OK", func(m *engine.Memory) { m.Status = engine.StatusQuarantined; m.Tier = engine.TierCold })

		ptr := func(s string) *string { return &s }
		st := func(s engine.Status) *engine.Status { return &s }
		kd := func(k engine.Kind) *engine.Kind { return &k }
		tr := func(x engine.Tier) *engine.Tier { return &x }
		cases := []struct {
			name  string
			f     engine.MemoryFilter
			want  []int64
			total int
		}{
			{"All", engine.MemoryFilter{}, []int64{m1.ID, m2.ID, m3.ID, m4.ID}, 4},
			{"IDs", engine.MemoryFilter{IDs: []int64{m4.ID, m2.ID, 999}}, []int64{m2.ID, m4.ID}, 2},
			{"Status", engine.MemoryFilter{Status: st(engine.StatusActive)}, []int64{m1.ID, m2.ID}, 2},
			{"Type", engine.MemoryFilter{Type: ptr("shared_thing")}, []int64{m1.ID}, 1},
			{"Kind", engine.MemoryFilter{Kind: kd(engine.KindFact)}, []int64{m2.ID, m3.ID, m4.ID}, 3},
			{"Tier", engine.MemoryFilter{Tier: tr(engine.TierHot)}, []int64{m2.ID}, 1},
			{"Scope", engine.MemoryFilter{Scope: ptr("project:alpha")}, []int64{m3.ID}, 1},
			{"TextCaseInsensitive", engine.MemoryFilter{Text: "project ALPHA"}, []int64{m3.ID}, 1},
			{"TextKorean", engine.MemoryFilter{Text: "사과"}, []int64{m1.ID}, 1},
			{"TextWildcardsLiteral", engine.MemoryFilter{Text: "100%"}, []int64{m2.ID}, 1},
			{"TextUnderscoreLiteral", engine.MemoryFilter{Text: "a_k"}, nil, 0},
			{"Key", engine.MemoryFilter{Key: "k3"}, []int64{m3.ID}, 1},
			{"Session", engine.MemoryFilter{Session: "s2"}, []int64{m3.ID}, 1},
			{"Combined", engine.MemoryFilter{Status: st(engine.StatusActive), Kind: kd(engine.KindFact)}, []int64{m2.ID}, 1},
			{"Page1", engine.MemoryFilter{Limit: 2}, []int64{m1.ID, m2.ID}, 4},
			{"Page2", engine.MemoryFilter{Limit: 2, Offset: 2}, []int64{m3.ID, m4.ID}, 4},
			{"OffsetOnly", engine.MemoryFilter{Offset: 3}, []int64{m4.ID}, 4},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ms, total, err := db.FindMemories(t.Context(), c.f)
				must(t, err)
				var ids []int64
				for _, m := range ms {
					ids = append(ids, m.ID)
				}
				if !reflect.DeepEqual(ids, c.want) || total != c.total {
					t.Fatalf("ids %v total %d, want %v total %d", ids, total, c.want, c.total)
				}
			})
		}
		t.Run("ValuesComplete", func(t *testing.T) {
			ms, _, err := db.FindMemories(t.Context(), engine.MemoryFilter{Key: "k2"})
			must(t, err)
			if len(ms) != 1 || !reflect.DeepEqual(ms[0], m2) {
				t.Fatalf("got %+v, want %+v", ms, m2)
			}
		})
	})
}
