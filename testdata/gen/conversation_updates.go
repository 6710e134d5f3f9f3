package main

// updateSessions are the knowledge updates (issue #16): facts that change
// over the six months, and near-misses that look like a change but are not
// one. They come after the rest of the script in the file, so that no
// earlier message id (nor the id of a memory an in-order ingest makes of
// it) moves, but their times fall on free days between the earlier
// sessions: an old fact in January, its update weeks or months later.
//
//	up:NAME  one of an update pair: the old fact first, then the newer one
//	nm:NAME  a near-miss: a change marker that must supersede nothing
//
// The old fact of each near-miss is named in demo_labels.json's
// near_misses next to it (the first id is the fact that must stay current).
// Assistant turns here avoid change markers ("now", "moved", "새로" …): an
// assistant turn is captured too, and one may not restate a change.
func updateSessions() []session {
	return []session{
		{"2026-01-07T20:00:00Z", "", "home in Suwon, the Galaxy S21, the grey Avante, niece Yuna's kindergarten", []turn{
			u("I live in Suwon, in a flat near Suwon station, about an hour from Seoul by subway.", "f", "up:home"),
			a("Suwon, an hour from Seoul by subway. Noted."),
			u("내 핸드폰은 갤럭시 S21이야. 케이스는 남색이고 배터리는 아직 괜찮아.", "f", "up:phone"),
			a("갤럭시 S21, 기억해 둘게요."),
			u("내 차는 2015년식 회색 아반떼야. 매일 출퇴근할 때 운전해.", "f", "nm:second-car", "nm:ev-car"),
			a("회색 아반떼로 출퇴근하시는군요."),
			u("My niece Yuna is in kindergarten at Sunflower, the one by the river park; I pick her up on Fridays.", "f", "up:school"),
			a("Yuna at Sunflower kindergarten, Friday pick-ups. Got it."),
			a("HEARTBEAT_OK", "n:heartbeat"),
			u("thx", "n:ack"),
		}},
		{"2026-01-12T19:00:00Z", "memtrace", "memtrace CI on Jenkins", []turn{
			u("Our CI for memtrace runs on Jenkins, on the old build box under my desk.", "f", "up:ci"),
			a("Jenkins on the build box under your desk. I'll keep the pipeline file in the repo."),
			tool("Error: connect ECONNREFUSED 127.0.0.1:8080", "n:error_log"),
			a("NO_REPLY", "n:no_reply"),
		}},
		{"2026-01-17T11:00:00Z", "garden-app", "garden-app's MySQL backend", []turn{
			u("garden-app's backend keeps all its data in MySQL 8 on a managed instance.", "f", "nm:postgres"),
			a("MySQL 8 on a managed instance for the garden-app backend."),
			u("ok", "n:ack"),
		}},
		{"2026-02-14T10:00:00Z", "", "moved from Suwon to Seoul (Mapo)", []turn{
			u("We moved to Seoul last weekend and we live in Mapo now, no more subway commute from Suwon.", "f", "up:home"),
			a("Mapo in Seoul. Congratulations on the flat!"),
			a("HEARTBEAT_OK", "n:heartbeat"),
		}},
		{"2026-02-26T20:00:00Z", "", "Sujin works at Naver", []turn{
			u("Sujin works at Naver as a UX designer on the maps team, mostly from the Pangyo office.", "f", "up:employer"),
			a("Sujin: UX designer at Naver, maps team, Pangyo."),
			u("넵", "n:ack"),
		}},
		{"2026-03-05T20:00:00Z", "memtrace", "memtrace CI moved to GitHub Actions; a question about Rust", []turn{
			u("We moved memtrace CI to GitHub Actions this week; the Jenkins box under my desk is switched off.", "f", "up:ci"),
			a("GitHub Actions it is. I'll port the nightly job and the release workflow."),
			u("Did you switch the memtrace importer to Rust, or is it still written in Go?", "nm:rust"),
			a("It is still Go, like the rest of memtrace; nothing was ported to Rust."),
			tool("[compacted: tool output removed to free context]", "n:compacted"),
		}},
		{"2026-03-10T19:00:00Z", "", "Yuna started first grade", []turn{
			u("Yuna started first grade at Maple Elementary this week, and she loves her teacher.", "f", "up:school"),
			a("First grade at Maple Elementary, how exciting for Yuna!"),
		}},
		{"2026-05-20T20:00:00Z", "", "Sujin joined Kakao; the iPhone 15; a second car for Sujin", []turn{
			u("Sujin joined Kakao last month as a UX lead; she says the commute is much shorter.", "f", "up:employer"),
			a("Kakao, UX lead. A shorter commute is a real win."),
			u("핸드폰을 아이폰 15로 바꿨어. 카메라가 훨씬 좋아졌어.", "f", "up:phone"),
			a("아이폰 15, 사진 찍기 좋겠네요."),
			u("We bought a second car for Sujin, a small Kia Ray she drives now; my Avante stays mine.", "f", "nm:second-car"),
			a("A Kia Ray for Sujin, and the Avante stays yours."),
			sys("GatewayRestart", "n:gateway_restart"),
		}},
		{"2026-06-03T20:00:00Z", "garden-app", "Postgres for analytics beside MySQL", []turn{
			u("For garden-app I now also use Postgres for the analytics dashboards, next to the MySQL backend.", "f", "nm:postgres"),
			a("Postgres for analytics only; the app data stays in MySQL."),
			u("ㅇㅋ", "n:ack"),
		}},
		{"2026-07-15T20:00:00Z", "", "a Jeju daydream; thinking about an electric car", []turn{
			u("If I moved to Jeju one day, I would open a tiny cafe near Hyeopjae beach.", "nm:jeju"),
			a("A cafe by Hyeopjae beach sounds lovely."),
			u("전기차로 바꿀까 생각 중이야. 그래도 아반떼는 아직 잘 굴러가.", "nm:ev-car"),
			a("아반떼가 잘 굴러가면 천천히 알아봐도 되겠어요."),
			a("HEARTBEAT_OK", "n:heartbeat"),
		}},
	}
}
