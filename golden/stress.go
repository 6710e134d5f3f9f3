package golden

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"time"
	"unicode"

	"memtrace/engine"
)

// Stress inflation: a golden set rerun over its fixture grown 10× or 100×
// with realistic distractors, to show which probes degrade as the store
// grows. Distractors are of two sorts:
//
//   - paraphrased near-duplicates of the fixture's own memories with one
//     detail changed (a number, a name, a hedge) — the hard case, since they
//     share most terms with the memory a probe wants;
//   - chit-chat: Korean single-turn Q/A from ../shared/data/ko_chatbot.csv
//     when present, otherwise generated bilingual small talk.

// StressOptions configure Distractors.
type StressOptions struct {
	// ChitChat is a pool of chit-chat lines (nil: generated text).
	ChitChat []string
	// NearDuplicateShare is the fraction of distractors that paraphrase a
	// fixture memory (default 0.3).
	NearDuplicateShare float64
	Seed               uint64
}

// Distractors returns n distractor memories for a store holding base,
// spread over base's time range, keyed "stress-N".
func Distractors(base []engine.Memory, n int, o StressOptions) []*engine.Memory {
	r := rand.New(rand.NewPCG(o.Seed, uint64(n)+1))
	share := o.NearDuplicateShare
	if share <= 0 {
		share = 0.3
	}
	var from, to time.Time
	var active []engine.Memory
	for _, m := range base {
		if m.Status != engine.StatusActive {
			continue
		}
		active = append(active, m)
		if from.IsZero() || m.CreatedAt.Before(from) {
			from = m.CreatedAt
		}
		if m.CreatedAt.After(to) {
			to = m.CreatedAt
		}
	}
	if from.IsZero() {
		from = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		to = from.AddDate(0, 6, 0)
	}
	span := to.Sub(from)
	out := make([]*engine.Memory, 0, n)
	for i := 0; i < n; i++ {
		at := from.Add(time.Duration(r.Int64N(int64(span) + 1)))
		var text string
		kind := engine.KindEpisode
		if len(active) > 0 && r.Float64() < share {
			src := active[r.IntN(len(active))]
			text = Paraphrase(src.Content, r)
			kind = src.Kind
		} else if len(o.ChitChat) > 0 {
			text = o.ChitChat[r.IntN(len(o.ChitChat))]
		} else {
			text = generatedChitChat(r)
		}
		out = append(out, &engine.Memory{
			Key: fmt.Sprintf("stress-%d", i), Content: text, Kind: kind, Type: "note",
			Importance: 0.2 + 0.5*r.Float64(), Role: "user",
			Session:   fmt.Sprintf("stress-s%d", i/12),
			CreatedAt: at,
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out
}

var (
	hedgesEN = []string{"I think ", "Maybe ", "Someone said ", "I heard that ", "Not sure, but "}
	hedgesKO = []string{"아마 ", "누가 그러는데 ", "내 생각엔 ", "확실하진 않은데 ", "들은 얘긴데 "}
	swapsEN  = []string{"Busan", "Tuesday", "my cousin", "last year", "the old laptop", "seven", "a friend"}
	swapsKO  = []string{"부산", "화요일", "사촌", "작년", "친구", "일곱", "회사"}
)

// Paraphrase rewrites text with a hedge in front and one word (a number,
// or a capitalised or random content word) swapped for another: close to
// the original in every index, but not the same fact.
func Paraphrase(text string, r *rand.Rand) string {
	korean := hasHangul(text)
	hedges, swaps := hedgesEN, swapsEN
	if korean {
		hedges, swaps = hedgesKO, swapsKO
	}
	words := strings.Fields(text)
	if len(words) > 2 {
		i := -1
		for j, w := range words { // a number first: dates and doses are the details that matter
			if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
				i = j
				break
			}
		}
		if i < 0 {
			i = 1 + r.IntN(len(words)-1)
		}
		words[i] = swaps[r.IntN(len(swaps))]
	}
	return hedges[r.IntN(len(hedges))] + strings.Join(words, " ")
}

func hasHangul(s string) bool {
	for _, r := range s {
		if r >= 0xAC00 && r <= 0xD7A3 {
			return true
		}
	}
	return false
}

var (
	chatEN = []string{"lol that's funny", "what should I watch tonight", "the weather is so nice today", "I'm bored",
		"did you see the game last night", "coffee or tea?", "my cat knocked over a glass again", "traffic was terrible this morning"}
	chatKO = []string{"오늘 날씨 진짜 좋다", "배고프다 뭐 먹지", "주말에 뭐 하지", "심심해", "어제 드라마 봤어?",
		"커피 마실까 차 마실까", "고양이가 또 컵 깨뜨렸어", "출근길 너무 막혔어"}
)

func generatedChitChat(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return chatKO[r.IntN(len(chatKO))] + " " + chatKO[r.IntN(len(chatKO))]
	}
	return chatEN[r.IntN(len(chatEN))] + ", " + chatEN[r.IntN(len(chatEN))]
}

// LoadChitChat reads the Q and A columns of a chit-chat CSV with a header
// (ko_chatbot.csv: Q,A,label) as one line each. A missing file is
// fs.ErrNotExist, so callers can fall back to generated text.
func LoadChitChat(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReader(f))
	cr.FieldsPerRecord = -1
	var out []string
	for first := true; ; first = false {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read chit-chat %s: %w", path, err)
		}
		if first {
			continue
		}
		for _, field := range rec[:min(2, len(rec))] {
			if s := strings.TrimSpace(field); s != "" {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// QuarantineList reads a curation file: one selector a line (key:K or
// id:N; blank lines and # comments skipped) naming fixture memories a
// curator quarantined. `golden run` applies <set>.quarantine, next to the
// set file, after building the fixture, so a set can prove that
// quarantined memories never surface.
func QuarantineList(path string) ([]Selector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Selector
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		sel, err := ParseSelector(s)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		if sel.Kind != SelectKey && sel.Kind != SelectID {
			return nil, fmt.Errorf("%s: line %d: quarantine by key: or id:, not %s", path, line, sel.Kind)
		}
		out = append(out, sel)
	}
	return out, sc.Err()
}

// Curator is what Quarantine needs of an engine; *engine.Engine is one.
type Curator interface {
	Memory(id int64) (engine.Memory, bool)
	MemoryByKey(key string) (engine.Memory, bool)
	Update(ctx context.Context, fn func(q engine.Queries) error) error
}

// Quarantine sets the selected memories to quarantined (keeping their type
// as orig_type), in one audited transaction. A selector that names no
// memory is an error: the curation file is out of date.
func Quarantine(ctx context.Context, e Curator, sels []Selector) error {
	var ms []engine.Memory
	for _, s := range sels {
		var m engine.Memory
		var ok bool
		if s.Kind == SelectID {
			m, ok = e.Memory(s.id)
		} else {
			m, ok = e.MemoryByKey(s.Value)
		}
		if !ok {
			return fmt.Errorf("quarantine %s: no such memory in the fixture (was the message dropped by capture?)", s)
		}
		m.Quarantine()
		ms = append(ms, m)
	}
	actor := engine.Actor{Name: "curator", Batch: "golden-fixture"}
	return e.Update(ctx, func(q engine.Queries) error {
		for i := range ms {
			if err := q.UpdateMemory(ctx, &ms[i], actor, "quarantine"); err != nil {
				return err
			}
		}
		return nil
	})
}
