package capture_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// Realistic-text ingest (issue #33): BenchmarkIngest10k's harness over
// text as an agent's transcript holds it, not the benchmark's lesson-free
// statements — bilingual, with short acknowledgements (≈ 23 %), the
// same preferences and corrections said again and again in other words
// and languages (≈ 10 %), questions and requests to the assistant,
// assistant replies and statements about the user's life and work. Run it
// beside BenchmarkIngest10k in one process and compare msgs/cpu-s:
//
//	go test ./capture -run '^$' -bench 'Ingest(Realistic)?10k$' -benchtime 3x
func BenchmarkIngestRealistic10k(b *testing.B) {
	benchmarkIngestOf(b, 10_000, false, realisticMessages(rand.New(rand.NewPCG(5, 6)), "r", 5000))
}

// realisticMessages makes n transcript messages in sessions of 40.
func realisticMessages(rng *rand.Rand, prefix string, n int) []engine.Message {
	msgs := make([]engine.Message, n)
	at := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range msgs {
		role, text := "user", ""
		switch r := rng.IntN(100); {
		case r < 23:
			text = pick(rng, acknowledgements)
		case r < 33:
			g := rulePool[rng.IntN(len(rulePool))]
			text = pick(rng, g)
		case r < 48:
			text = fmt.Sprintf(pick(rng, requests), pick(rng, topics))
		case r < 63:
			role = "assistant"
			text = fmt.Sprintf(pick(rng, replies), pick(rng, topics), 2+rng.IntN(40))
		default:
			text = fmt.Sprintf(pick(rng, statements), pick(rng, names), pick(rng, places), 1+rng.IntN(28))
		}
		msgs[i] = engine.Message{ID: fmt.Sprintf("%s%06d", prefix, i), Session: fmt.Sprintf("%s-s%d", prefix, i/40), Role: role,
			Text: text, At: at.Add(time.Duration(i) * 47 * time.Second)}
	}
	return msgs
}

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

var acknowledgements = []string{"ok", "thanks!", "got it", "sounds good", "perfect, thank you", "👍", "yes", "sure",
	"네", "네 알겠습니다", "좋아요", "ㅇㅋ", "감사합니다!", "오 좋네요", "넵", "맞아요", "ok 고마워", "cool"}

// rulePool holds standing rules, each as the wordings a user repeats it in.
var rulePool = [][]string{
	{"always use pnpm, never npm", "npm 말고 pnpm 써줘", "pnpm only please, no npm install"},
	{"reply in Korean from now on", "앞으로 답변은 한국어로 해줘", "한국어로 답해줘, English 말고"},
	{"don't use tabs, indent with 4 spaces", "탭 쓰지 마, 스페이스 4칸으로", "indent with four spaces, not tabs"},
	{"never force push to main", "main에 force push 하지 마", "don't force-push the main branch"},
	{"wrap errors with context, don't return bare errors", "에러 그냥 리턴하지 말고 감싸서 반환해", "always wrap err with fmt.Errorf"},
	{"run the tests before you push", "푸시하기 전에 테스트 꼭 돌려", "always run tests before pushing"},
	{"keep answers short, no preamble", "답변은 짧게 해줘, 서론 빼고", "short answers please"},
	{"write commit messages in English", "커밋 메시지는 영어로 써줘", "commit messages: English only"},
	{"don't hardcode secrets, read them from the environment", "토큰 하드코딩하지 마, 환경변수로 읽어", "never hardcode API keys"},
	{"use slog for logging, not fmt.Println", "로그는 slog로 남겨, Println 말고", "always log with slog"},
}

var requests = []string{"can you look at %s?", "please check %s again", "what's wrong with %s?", "%s 좀 봐줄래?",
	"%s 어떻게 고쳐?", "could you refactor %s", "왜 %s가 실패하지?", "explain %s to me"}

var topics = []string{"the login handler", "the payment service", "the flaky test", "the CI config", "the migration script",
	"결제 모듈", "로그인 화면", "배포 스크립트", "the search index", "the README"}

var replies = []string{"I looked at %s and found %d issues; here is a summary.", "Done — %s now passes (%d tests).",
	"%s 확인했습니다. 수정할 곳이 %d군데 있어요.", "Here is the diff for %s, %d lines changed."}

var statements = []string{"My sister %s moved to %s last month, %d days ago.", "I had dinner with %s in %s on the %dth.",
	"%s랑 %s에서 만났어요, %d일에.", "I started climbing with %s at a gym in %s, %d sessions so far.",
	"%s가 %s로 이직했대요. %d년 만이에요.", "We are planning a trip with %s to %s for %d days."}

var names = []string{"Minji", "Jun", "Sarah", "Hyunwoo", "Tom", "지수", "민호", "Emma"}

var places = []string{"Busan", "Seoul", "Lisbon", "Jeju", "Osaka", "대전", "부산", "Berlin"}

// BenchmarkLessonSighting is the cost of one more sighting of a lesson
// already seen 10 or 1,000 times (distinct messages, each in its own
// session): lessons as rows make it O(1) in the earlier sightings, so the
// two ns/op should be close; an occurrences array decoded and rewritten
// per sighting makes the 1,000 case grow with it.
func BenchmarkLessonSighting(b *testing.B) {
	for _, seen := range []int{10, 1000} {
		b.Run(fmt.Sprintf("seen=%d", seen), func(b *testing.B) {
			ctx := context.Background()
			e := openCaptureEngine(b, nil)
			send := func(i int) {
				m := engine.Message{ID: fmt.Sprintf("l%07d", i), Session: fmt.Sprintf("ls%d", i), Role: "user",
					Text: fmt.Sprintf("don't use tabs for indentation, use four spaces (said %d times)", i), At: testNow.Add(time.Duration(i) * time.Second)}
				if _, err := capture.Correct(ctx, e, m); err != nil {
					b.Fatal(err)
				}
			}
			for i := range seen {
				send(i)
			}
			i := seen
			b.ReportAllocs()
			for b.Loop() {
				send(i)
				i++
			}
		})
	}
}
