package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
)

func TestCaptures(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		db := b.MustOpenClock(t, newClock().Now)
		m := newMemory("m-7", "I prefer tea")
		must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "capture"}))
		stored := &engine.CaptureRecord{
			MessageID: "m-7", Session: "s1", Role: "user", Project: "alpha", Text: "I prefer tea", At: at(1),
			Outcome: engine.OutcomeStored, MemoryID: m.ID,
			Trail: []engine.Decision{{Layer: engine.LayerL1, Verdict: "pass"}, {Layer: engine.LayerStore, Verdict: "store", Reason: "preference"}},
		}
		hb := &engine.CaptureRecord{MessageID: "m-8", Session: "s1", Role: "assistant", Text: "HEARTBEAT_OK", At: at(2),
			Outcome: engine.OutcomeDropped, DroppedBy: engine.LayerL1, Reason: "system_noise",
			Trail: []engine.Decision{{Layer: engine.LayerL1, Verdict: "drop", Reason: "system_noise", Pattern: "heartbeat_ok"}}}
		hb2 := &engine.CaptureRecord{MessageID: "", Session: "s2", Role: "assistant", Text: "heartbeat_ok again", At: at(3),
			Outcome: engine.OutcomeDropped, DroppedBy: engine.LayerL1, Reason: "system_noise", Trail: nil}
		ack := &engine.CaptureRecord{MessageID: "m-10", Role: "user", Text: "네", At: at(4),
			Outcome: engine.OutcomeDropped, DroppedBy: engine.LayerL2, Reason: "acknowledgement", Trail: []engine.Decision{}}
		for _, c := range []*engine.CaptureRecord{stored, hb, hb2, ack} {
			must(t, db.InsertCapture(t.Context(), c))
			if c.ID == 0 || c.CreatedAt.IsZero() {
				t.Fatalf("insert set ID=%d CreatedAt=%v", c.ID, c.CreatedAt)
			}
		}
		hb2.Trail = []engine.Decision{} // nil trails are stored as empty lists

		t.Run("RoundTrip", func(t *testing.T) {
			all, total, err := db.FindCaptures(t.Context(), engine.CaptureFilter{})
			must(t, err)
			want := []*engine.CaptureRecord{stored, hb, hb2, ack}
			if total != 4 || !reflect.DeepEqual(all, want) {
				t.Fatalf("total %d\n got %+v\nwant %+v", total, all, want)
			}
		})
		t.Run("Filters", func(t *testing.T) {
			cases := []struct {
				name  string
				f     engine.CaptureFilter
				want  []int64
				total int
			}{
				{"Outcome", engine.CaptureFilter{Outcome: engine.OutcomeDropped}, []int64{hb.ID, hb2.ID, ack.ID}, 3},
				{"DroppedBy", engine.CaptureFilter{DroppedBy: engine.LayerL2}, []int64{ack.ID}, 1},
				{"Reason", engine.CaptureFilter{Reason: "system_noise"}, []int64{hb.ID, hb2.ID}, 2},
				{"Text", engine.CaptureFilter{Text: "heartbeat_OK"}, []int64{hb.ID, hb2.ID}, 2},
				{"Paged", engine.CaptureFilter{Outcome: engine.OutcomeDropped, Limit: 1, Offset: 1}, []int64{hb2.ID}, 3},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					got, total, err := db.FindCaptures(t.Context(), c.f)
					must(t, err)
					var ids []int64
					for _, r := range got {
						ids = append(ids, r.ID)
					}
					if !reflect.DeepEqual(ids, c.want) || total != c.total {
						t.Fatalf("ids %v total %d, want %v total %d", ids, total, c.want, c.total)
					}
				})
			}
		})
		t.Run("ReasonCounts", func(t *testing.T) {
			got, err := db.CaptureReasonCounts(t.Context())
			must(t, err)
			want := []engine.ReasonCount{{Layer: "l1", Reason: "system_noise", Count: 2}, {Layer: "l2", Reason: "acknowledgement", Count: 1}}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
		t.Run("Exists", func(t *testing.T) {
			for id, want := range map[string]bool{"m-7": true, "m-10": true, "m-9": false, "": false} {
				got, err := db.CaptureExists(t.Context(), id)
				must(t, err)
				if got != want {
					t.Fatalf("CaptureExists(%q) = %v, want %v", id, got, want)
				}
			}
		})
		t.Run("ExistBatch", func(t *testing.T) {
			// More ids than one query binds, the taken ones among them.
			ids := []string{"m-7", "", "m-9", "m-10", "m-7"}
			for i := 0; i < 1200; i++ {
				ids = append(ids, fmt.Sprintf("none-%d", i))
			}
			ids = append(ids, "m-10")
			got, err := db.CapturesExist(t.Context(), ids)
			must(t, err)
			if want := map[string]bool{"m-7": true, "m-10": true}; !reflect.DeepEqual(got, want) {
				t.Fatalf("CapturesExist = %v, want %v", got, want)
			}
			got, err = db.CapturesExist(t.Context(), nil)
			must(t, err)
			if len(got) != 0 {
				t.Fatalf("CapturesExist(nil) = %v, want none", got)
			}
		})
		t.Run("ErrUnknownMemory", func(t *testing.T) {
			err := db.InsertCapture(t.Context(), &engine.CaptureRecord{Text: "x", Outcome: engine.OutcomeStored, MemoryID: 999})
			wantCode(t, err, engine.ENOTFOUND)
		})
	})
}

func TestCorrections(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		db := b.MustOpen(t)
		c := &engine.Correction{
			LessonKey: "no-emoji", Context: "chat", Correction: "이모지 쓰지 마", Lesson: "Do not use emoji", Scope: "global",
			Count: 1, FirstSeen: at(1), LastSeen: at(1), Status: engine.CorrectionPending,
			Occurrences: []engine.Occurrence{{MessageID: "m1", Session: "s1", Text: "이모지 쓰지 마", At: at(1)}},
		}
		must(t, db.SaveCorrection(t.Context(), c))
		id := c.ID
		got, err := db.GetCorrection(t.Context(), "no-emoji")
		must(t, err)
		if !reflect.DeepEqual(got, c) {
			t.Fatalf("got %+v\nwant %+v", got, c)
		}
		// Saving the same key again updates in place.
		c.Count, c.LastSeen, c.Status = 3, at(9), engine.CorrectionCandidate
		c.Occurrences = append(c.Occurrences, engine.Occurrence{Text: "no emoji please", At: at(9)})
		c.ID = 0
		must(t, db.SaveCorrection(t.Context(), c))
		if c.ID != id {
			t.Fatalf("update by key changed id %d -> %d", id, c.ID)
		}
		got, err = db.GetCorrection(t.Context(), "no-emoji")
		must(t, err)
		if !reflect.DeepEqual(got, c) {
			t.Fatalf("after update got %+v\nwant %+v", got, c)
		}
		other := &engine.Correction{LessonKey: "tabs", Lesson: "Use tabs", Count: 1, FirstSeen: at(2), LastSeen: at(2), Status: engine.CorrectionPending}
		must(t, db.SaveCorrection(t.Context(), other))
		other.Occurrences = []engine.Occurrence{}
		cands, err := db.FindCorrections(t.Context(), engine.CorrectionCandidate)
		must(t, err)
		if len(cands) != 1 || cands[0].ID != id {
			t.Fatalf("candidates: %+v", cands)
		}
		all, err := db.FindCorrections(t.Context(), "")
		must(t, err)
		if !reflect.DeepEqual(all, []*engine.Correction{c, other}) {
			t.Fatalf("all: %+v", all)
		}
		_, err = db.GetCorrection(t.Context(), "missing")
		wantCode(t, err, engine.ENOTFOUND)
	})
}

func TestProposals(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		clock := newClock()
		db := b.MustOpenClock(t, clock.Now)
		m := newMemory("", "we said I love you in the play")
		must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "t"}))
		p := &engine.Proposal{Kind: engine.ProposalQuarantine, MemoryID: m.ID, Proposer: engine.ProposerJudge,
			Verdict: json.RawMessage(`{"verdict":"roleplay_scene","confidence":0.9}`), Model: "qwen3:4b", PromptHash: "abc",
			Confidence: 0.9, Reason: "role-play", Status: engine.ProposalPending, Batch: "triage-1"}
		must(t, db.InsertProposal(t.Context(), p))
		if p.ID == 0 || p.CreatedAt.IsZero() {
			t.Fatalf("insert set ID=%d CreatedAt=%v", p.ID, p.CreatedAt)
		}
		got, err := db.GetProposal(t.Context(), p.ID)
		must(t, err)
		if !reflect.DeepEqual(got, p) {
			t.Fatalf("got %+v\nwant %+v", got, p)
		}
		p.Status, p.DecidedBy, p.DecidedAt = engine.ProposalApproved, "curator", at(5)
		must(t, db.UpdateProposal(t.Context(), p))
		got, err = db.GetProposal(t.Context(), p.ID)
		must(t, err)
		if !reflect.DeepEqual(got, p) {
			t.Fatalf("after update got %+v\nwant %+v", got, p)
		}
		demote := &engine.Proposal{Kind: engine.ProposalDemote, Proposer: engine.ProposerHeartbeat, Reason: "unused 30 days",
			Status: engine.ProposalPending, CreatedAt: at(6)}
		must(t, db.InsertProposal(t.Context(), demote))
		cases := []struct {
			name string
			f    engine.ProposalFilter
			want []int64
		}{
			{"All", engine.ProposalFilter{}, []int64{p.ID, demote.ID}},
			{"Kind", engine.ProposalFilter{Kind: engine.ProposalDemote}, []int64{demote.ID}},
			{"Status", engine.ProposalFilter{Status: engine.ProposalApproved}, []int64{p.ID}},
			{"Proposer", engine.ProposalFilter{Proposer: engine.ProposerHeartbeat}, []int64{demote.ID}},
			{"Memory", engine.ProposalFilter{MemoryID: m.ID}, []int64{p.ID}},
			{"Batch", engine.ProposalFilter{Batch: "triage-1"}, []int64{p.ID}},
			{"Limit", engine.ProposalFilter{Limit: 1}, []int64{p.ID}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				got, err := db.FindProposals(t.Context(), c.f)
				must(t, err)
				var ids []int64
				for _, x := range got {
					ids = append(ids, x.ID)
				}
				if !reflect.DeepEqual(ids, c.want) {
					t.Fatalf("ids %v, want %v", ids, c.want)
				}
			})
		}
		t.Run("ErrNotFound", func(t *testing.T) {
			_, err := db.GetProposal(t.Context(), 999)
			wantCode(t, err, engine.ENOTFOUND)
			wantCode(t, db.UpdateProposal(t.Context(), &engine.Proposal{ID: 999}), engine.ENOTFOUND)
			wantCode(t, db.InsertProposal(t.Context(), &engine.Proposal{Kind: "archive", MemoryID: 999}), engine.ENOTFOUND)
		})
		t.Run("ErrBadVerdict", func(t *testing.T) {
			wantCode(t, db.InsertProposal(t.Context(), &engine.Proposal{Kind: "archive", Verdict: json.RawMessage(`{nope`)}), engine.EINVALID)
		})
	})
}

func TestTracesSettings(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		db := b.MustOpenClock(t, newClock().Now)
		t.Run("TracesKeepNewest", func(t *testing.T) {
			var ids []int64
			var saved []*engine.StoredTrace
			for i := range 5 {
				tr := &engine.StoredTrace{Query: "충주 사과", Session: "s1", Source: "mcp", At: at(i),
					Trace: json.RawMessage(`{"query":"충주 사과","stages":[]}`)}
				must(t, db.SaveTrace(t.Context(), tr, 3))
				ids = append(ids, tr.ID)
				saved = append(saved, tr)
			}
			got, err := db.FindTraces(t.Context(), 0)
			must(t, err)
			if !reflect.DeepEqual(got, []*engine.StoredTrace{saved[4], saved[3], saved[2]}) {
				t.Fatalf("kept traces: %+v", got)
			}
			limited, err := db.FindTraces(t.Context(), 1)
			must(t, err)
			if len(limited) != 1 || limited[0].ID != ids[4] {
				t.Fatalf("limit 1: %+v", limited)
			}
		})
		t.Run("Settings", func(t *testing.T) {
			v, err := db.GetSetting(t.Context(), "embedder")
			must(t, err)
			if v != "" {
				t.Fatalf("unset setting = %q", v)
			}
			must(t, db.SetSetting(t.Context(), "embedder", "hashed-256"))
			must(t, db.SetSetting(t.Context(), "embedder", "ollama:nomic"))
			v, err = db.GetSetting(t.Context(), "embedder")
			must(t, err)
			if v != "ollama:nomic" {
				t.Fatalf("setting = %q", v)
			}
		})
	})
}

func TestUpdate(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		t.Run("OK", func(t *testing.T) {
			db := b.MustOpen(t)
			var ids []int64
			must(t, db.Update(t.Context(), func(q engine.Queries) error {
				for i := range 3 {
					m := newMemory("", "batch item")
					m.AccessCount = i
					if err := q.InsertMemory(t.Context(), m, engine.Actor{Name: "t", Batch: "b"}); err != nil {
						return err
					}
					ids = append(ids, m.ID)
				}
				// Reads inside the transaction see its own writes.
				_, total, err := q.FindMemories(t.Context(), engine.MemoryFilter{})
				if err != nil || total != 3 {
					t.Errorf("inside tx: total %d err %v", total, err)
				}
				return nil
			}))
			_, total, err := db.FindMemories(t.Context(), engine.MemoryFilter{})
			must(t, err)
			if total != 3 {
				t.Fatalf("committed %d memories, want 3", total)
			}
		})
		t.Run("ErrorLeavesNothing", func(t *testing.T) {
			db := b.MustOpen(t)
			first := newMemory("first", "before the failed batch")
			must(t, db.InsertMemory(t.Context(), first, engine.Actor{Name: "t"}))
			boom := errors.New("judge exploded")
			err := db.Update(t.Context(), func(q engine.Queries) error {
				m := newMemory("k", "doomed")
				if err := q.InsertMemory(t.Context(), m, engine.Actor{Name: "t", Batch: "doomed"}); err != nil {
					return err
				}
				if err := q.InsertCapture(t.Context(), &engine.CaptureRecord{MessageID: "k", Text: "doomed", Outcome: engine.OutcomeStored, MemoryID: m.ID}); err != nil {
					return err
				}
				if err := q.RecordAccess(t.Context(), first.ID, at(40)); err != nil {
					return err
				}
				if err := q.SetSetting(t.Context(), "x", "y"); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("Update returned %v, want the fn's error", err)
			}
			_, total, err := db.FindMemories(t.Context(), engine.MemoryFilter{})
			must(t, err)
			_, captures, err := db.FindCaptures(t.Context(), engine.CaptureFilter{})
			must(t, err)
			audit, err := db.AuditForBatch(t.Context(), "doomed")
			must(t, err)
			setting, err := db.GetSetting(t.Context(), "x")
			must(t, err)
			got, err := db.GetMemory(t.Context(), first.ID)
			must(t, err)
			if total != 1 || captures != 0 || len(audit) != 0 || setting != "" || !reflect.DeepEqual(got, first) {
				t.Fatalf("failed Update left memories=%d captures=%d audit=%d setting=%q first=%+v", total, captures, len(audit), setting, got)
			}
			// The seq counter was not advanced by the rolled-back transaction.
			next := newMemory("", "after")
			must(t, db.InsertMemory(t.Context(), next, engine.Actor{Name: "t"}))
			if next.Seq != first.Seq+1 {
				t.Fatalf("seq after failed Update = %d, want %d", next.Seq, first.Seq+1)
			}
		})
	})
}
