package main

// The demo conversation, written as a script. Tags on a turn name its labels:
//
//	n:FAMILY  seeded noise of that family       f    durable fact (genuine)
//	p         preference (genuine)              nwi  noise pattern + real info (genuine)
//	esc       terminal escape inside a fact     ep   episode (fast-decaying)
//	gm        genuine milestone                 fm   false milestone (chit-chat, role-play)
//	c:LESSON  correction counted toward LESSON  nl   one-off / context-bound, not a lesson
//	as:NAME   association group                 gr   greeting or off-topic query
//	up:NAME   knowledge update (old, then new)  nm:NAME  near-miss (see conversation_updates.go)
//
// Untagged turns are ordinary conversation the tests make no claim about.

type turn struct {
	role string
	text string
	tags []string
}

type session struct {
	start   string // RFC 3339, UTC
	project string // "" for personal chat
	topic   string
	turns   []turn
}

func u(text string, tags ...string) turn    { return turn{"user", text, tags} }
func a(text string, tags ...string) turn    { return turn{"assistant", text, tags} }
func tool(text string, tags ...string) turn { return turn{"tool", text, tags} }
func sys(text string, tags ...string) turn  { return turn{"system", text, tags} }

const (
	panicLesson  = "c:no-panic-in-library"
	gofmtLesson  = "c:gofmt-before-commit"
	tablesLesson = "c:table-driven-tests"
)

// script is the whole conversation in time order: the first three months
// here, the rest in conversation_late.go.
func script() []session {
	return append(earlySessions(), lateSessions()...)
}

func earlySessions() []session {
	return []session{
		{"2026-01-05T10:00:00Z", "memtrace", "memtrace kickoff: SQLite decision, deadline, first panic correction", []turn{
			u("New project today: memtrace, a Go CLI that gives AI agents long-term memory with a terminal UI.", "f", "nm:rust"),
			a("Sounds great. Do you want to start with the storage layer or the capture pipeline?"),
			u("Storage first. We're going with SQLite over Postgres for memtrace: a single file, no server to run, easy backups.", "f"),
			a("Good call. I'll use mattn/go-sqlite3 with WAL mode and a busy timeout."),
			u("Also, I prefer concise answers with the code first and the explanation after, not the other way round.", "p"),
			a("Understood: code first, a short explanation after."),
			a("HEARTBEAT_OK", "n:heartbeat"),
			u("ok", "n:ack"),
			tool("Error: ENOENT: no such file or directory, open '/home/jun/memtrace/migrations/0001_init.sql'", "n:error_log"),
			a("The migrations folder doesn't exist yet; I'll create migrations/0001_init.sql with the memories table."),
			u("The hard deadline for memtrace v1.0 is April 15, because that's when I demo it at the Go meetup.", "f"),
			u("I usually work on memtrace on weekday evenings after 9pm, so keep session summaries short.", "f"),
			a("Noted: v1.0 by April 15 for the Go meetup demo. Here's the schema draft with memories, captures and audit tables."),
			a("func Open(path string) *DB {\n\tdb, err := sql.Open(\"sqlite3\", path)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\treturn &DB{db}\n}"),
			u("Don't use panic in library code. Return the error to the caller and let main decide what to do.", panicLesson),
			a("Right, Open now returns (*DB, error) and wraps the failure with fmt.Errorf and %w."),
			u("thanks", "n:ack"),
			a("NO_REPLY", "n:no_reply"),
		}},
		{"2026-01-09T21:30:00Z", "", "personal facts in Korean: lactose, coffee, sister, birthday", []turn{
			u("안녕", "gr"),
			a("안녕하세요! 오늘은 어떤 이야기를 해볼까요?"),
			u("오늘은 그냥 나에 대해 몇 가지 알려줄게. 기억해뒀다가 나중에 참고해줘."),
			u("참고로 저는 유당불내증이 있어요. 우유 들어간 음료나 음식은 추천하지 말아 주세요.", "f"),
			a("알겠습니다. 유당불내증이 있으시니 우유가 들어간 메뉴는 빼고 추천할게요."),
			u("커피는 우유 없이 아이스 아메리카노만 마셔. 라떼는 못 마시니까 권하지 마.", "p"),
			a("네", "n:ack"),
			u("내 여동생 이름은 지연이고 부산에 살아. 간호사로 일하고 있어.", "f"),
			a("지연 님이 부산에서 간호사로 일하시는군요. 기억해 둘게요."),
			u("ㅇㅋ", "n:ack"),
			u("혹시 내 예전 메모 파일 열어볼 수 있어? notes/2025.md 말이야."),
			a("죄송하지만 그 파일에 접근할 수 없습니다. 내용을 여기에 붙여 주시면 정리해 드릴게요.", "n:self_limitation"),
			u("아 그렇구나. 그럼 나중에 붙여줄게."),
			u("그리고 내 생일은 3월 14일이야. 화이트데이랑 같아서 잘 안 잊혀.", "f"),
			a("3월 14일 생일, 기억해 둘게요!"),
			u("넵", "n:ack"),
			a("[MISSING]", "n:missing"),
		}},
		{"2026-01-14T13:00:00Z", "garden-app", "garden-app context: Flutter, Hana, dark mode, June 30 release", []turn{
			u("Switching to garden-app today. Quick context: it's a Flutter mobile app that reminds people when to water their plants.", "f"),
			a("Got it, a Flutter app with watering reminders. Where did you leave off?"),
			u("The sync screen. Hana, our designer, wants the plant cards to look like old seed packets.", "f"),
			a("Nice idea. I can sketch a PlantCard widget with a paper texture background and a rounded header."),
			sys("GatewayRestart: gateway restarted after config reload, session resumed", "n:gateway_restart"),
			u("Please always show me screenshots and widget samples in dark mode; I use dark mode everywhere and light themes hurt my eyes.", "p"),
			a("Understood, I'll default every theme sample to dark mode."),
			tool("Error: connect ETIMEDOUT 34.117.59.81:443 at TCPConnectWrap.afterConnect", "n:error_log"),
			a("The plant catalogue API timed out. I'll retry once with a longer timeout."),
			tool("[compacted: 12 tool outputs removed]", "n:compacted"),
			u("The garden-app 1.0 release date is June 30; we promised it to the community garden association.", "f"),
			a("June 30 for garden-app 1.0. I'll keep that in mind when we plan the beta."),
			u("okay", "n:ack"),
			a("HEARTBEAT_OK", "n:heartbeat"),
			u("hmm", "n:too_short"),
			a("Want me to draft the beta timeline now, or after the sync screen is done?"),
			u("After. Let's finish the sync screen first."),
		}},
		{"2026-01-20T22:10:00Z", "memtrace", "capture filter work, reply-language preference, gofmt correction #1", []turn{
			u("memtrace 캡처 파이프라인 작업 이어서 하자. L1 필터부터."),
			a("좋아요. L1 규칙 테이블을 먼저 만들고 각 패턴에 이름을 붙일게요."),
			u("아 그리고 한국어로 답해줘 when I write in Korean. 영어로 쓰면 영어로 답하고.", "p"),
			a("알겠습니다. 한국어로 쓰시면 한국어로 답할게요."),
			a("engine/filter.go 수정본입니다. 들여쓰기가 조금 어긋나 있을 수 있어요."),
			u("커밋 전에 gofmt 돌려줘. 포맷 안 맞은 채로 커밋하면 CI에서 매번 깨져.", gofmtLesson),
			a("네, 앞으로 커밋 전에 항상 gofmt -l . 로 확인할게요."),
			tool("[truncated: output exceeded 30000 chars]", "n:truncated"),
			a("NO_REPLY", "n:no_reply"),
			u("테스트 로그가 너무 길어서 잘렸네. 실패한 것만 보여줘."),
			a("실패한 테스트는 TestShortKorean 하나예요. 한국어 문장의 길이 기준이 영어와 같아서 생긴 문제입니다."),
			u("한국어는 글자당 정보량이 두 배쯤 되니까 memtrace 길이 기준을 한국어는 절반으로 낮추자.", "f"),
			a("좋아요. 한국어 최소 길이를 영어의 절반으로 두겠습니다."),
			u("ㅇㅋ", "n:ack"),
			tool("Error: ENOENT: no such file or directory, stat 'testdata/noise_ko.txt'", "n:error_log"),
			u("...", "n:too_short"),
		}},
		{"2026-01-27T08:20:00Z", "", "health facts: peanuts, knee, medication, dentist; ramen episode", []turn{
			u("hi", "gr"),
			a("Hi! What's up this morning?"),
			u("Health stuff, so you know for later: I'm allergic to peanuts, pretty seriously, and I carry an EpiPen.", "f", "dp:ramen-vs-peanuts"),
			a("Thanks for telling me. I'll never suggest recipes or snacks with peanuts."),
			u("I also hurt my left knee skiing last winter (a partial ACL tear), so no running plans longer than 10k for now.", "f"),
			a("Understood, I'll keep training suggestions knee-friendly and under 10k."),
			u("I take 10mg of cetirizine every morning for allergies, in case a doctor ever asks you to list my medication.", "f"),
			u("My blood type is A positive, in case you ever help me fill in a medical form.", "f"),
			u("Today I had ramen for lunch at the place next to the office, way too salty.", "ep", "dp:ramen-vs-peanuts"),
			a("Ha, salty ramen happens. Drink some water this afternoon."),
			u("Can you check the news about the Seoul subway strike for me?"),
			a("I cannot browse the internet, so I can't check live news. A news app will have the latest.", "n:self_limitation"),
			u("right", "n:too_short"),
			u("Also I have a dentist appointment on February 20 at 3pm, remind me the week before.", "f"),
			a("Dentist on February 20 at 3pm, noted."),
			u("thanks", "n:ack"),
			a("HEARTBEAT_OK", "n:heartbeat"),
		}},
		{"2026-02-03T20:00:00Z", "memtrace", "flaky store tests, panic correction #2 (Korean), table tests #1, one-off skip", []turn{
			u("Back on memtrace. The store tests are flaky on CI again."),
			tool("Error: connect ECONNREFUSED 127.0.0.1:11434 (is ollama running?)", "n:error_log"),
			a("The flaky test talks to a real Ollama. I'll switch it to an httptest server with recorded responses."),
			u("Good. And write the store tests as table-driven tests please: one slice of cases, one loop.", tablesLesson),
			a("Will do. Here's the reworked TestMigrate with a cases table."),
			a("I added a guard: if the DB's schema version is newer than ours, we panic(\"database from a newer memtrace\") so nothing gets corrupted."),
			u("라이브러리 코드에서 panic 쓰지 마. 새 버전 DB면 에러를 돌려주고 메시지로 업그레이드하라고 알려줘.", panicLesson),
			a("Fixed: Open returns ErrNewerSchema with a message telling the user to upgrade memtrace."),
			u("Just this once, skip the tests; I need to push this branch before my train leaves.", "nl"),
			a("Pushing without running the tests this time."),
			tool("[compacted: tool output removed to free context]", "n:compacted"),
			a("I'm unable to run git push from this sandbox; please push from your terminal.", "n:self_limitation"),
			u("ok", "n:ack"),
			sys("GatewayRestart notice: connection to gateway re-established", "n:gateway_restart"),
			u("lol", "n:too_short"),
		}},
		{"2026-02-10T23:40:00Z", "", "late-night chit-chat and a knight/princess role-play", []turn{
			u("잠이 안 와서 그냥 말 걸어봤어 ㅋㅋ 오늘 하루 너무 길었다"),
			a("늦은 밤이네요. 잠이 안 올 때는 따뜻한 차 한 잔 어때요?"),
			u("차는 보리차가 좋아. 카페인 있는 건 밤에 마시면 잠을 못 자.", "p"),
			u("심심한데 역할극 하나 하자. 너는 기사고 나는 공주야."),
			a("*무릎을 꿇으며* 공주님, 이 검과 제 마음은 영원히 공주님의 것입니다.", "fm"),
			u("*기사의 손을 잡으며* 그대만을 영원히 믿겠어요.", "fm"),
			a("*고개를 숙이며* 목숨을 걸고 공주님을 지키겠습니다.", "fm"),
			u("(웃으며) 평생 너만 믿을게 ㅋㅋ", "fm"),
			u("사랑해~ ㅋㅋ 농담이야", "fm"),
			a("ㅋㅋ 저도 즐거웠어요. 이제 자러 가실 시간이에요."),
			u("너밖에 없다 진짜 ㅋㅋ 내 얘기 들어주는 건", "fm"),
			u("ㅋㅋㅋ", "n:too_short"),
			a("NO_REPLY", "n:no_reply"),
			u("잘 자", "gr"),
		}},
		{"2026-02-16T14:00:00Z", "garden-app", "push notifications: FCM decision, beta date, Flutter version", []turn{
			u("garden-app 푸시 알림 작업하자. 물 주기 알림이 핵심 기능이야."),
			a("좋아요. 알림 스케줄러부터 볼까요?"),
			u("푸시 알림은 FCM으로 가기로 했어. 자체 서버는 운영 부담이 너무 커.", "f"),
			a("FCM으로 결정하셨군요. firebase_messaging 패키지로 연결하겠습니다."),
			u("베타 테스트는 4월 30일에 시작해. 커뮤니티 가든 회원 20명이 참여하기로 했어.", "f"),
			a("4월 30일 베타, 테스터 20명 기억해 둘게요."),
			tool("Error: ETIMEDOUT while fetching https://fcm.googleapis.com/v1/projects/garden-app/messages:send", "n:error_log"),
			a("FCM 요청이 시간 초과됐어요. 네트워크를 확인하고 다시 시도할게요."),
			sys("GatewayRestart", "n:gateway_restart"),
			u("알겠습니다", "n:ack"),
			a("[MISSING]", "n:missing"),
			u("garden-app은 Flutter 3.24 기준으로 빌드해. 그 위 버전은 아직 플러그인 호환이 안 돼.", "f"),
			u("하나 님이 알림 아이콘을 물뿌리개 모양으로 바꿔 달라고 했어. 다크 모드에서도 잘 보여야 해.", "f"),
			a("물뿌리개 아이콘으로 교체한 버전 올렸어요. 다크 모드에서도 잘 보이게 외곽선을 넣었어요."),
			u("좋아 좋아", "n:too_short"),
			a("HEARTBEAT_OK", "n:heartbeat"),
		}},
		{"2026-02-22T11:00:00Z", "", "back from Kyoto: matcha, Fushimi Inari, wife and anniversary, ronin role-play", []turn{
			u("Just got back from a week in Kyoto with Sujin, still jet-lagged but so happy.", "ep", "as:kyoto"),
			a("Welcome back! How was Kyoto?"),
			u("The matcha in Uji, just outside Kyoto, was incredible. I finally get why people obsess over it.", "f", "as:kyoto"),
			u("By the way, Sujin is my wife; we've been married since October 3, 2021.", "f"),
			a("Lovely. October 3 is your wedding anniversary then, noted."),
			u("Fushimi Inari at sunrise was the best view of the whole trip, almost nobody was there.", "ep", "as:kyoto"),
			a("Early mornings are the secret for Fushimi Inari."),
			u("what's the weather like in Seoul today?", "gr"),
			a("I don't have access to live weather data. A weather app will give you the current forecast.", "n:self_limitation"),
			u("Let's do a little story: you are a ronin and I am a tea master in old Kyoto."),
			a("*The ronin bows deeply at the tea house door* Master, I will guard your tea house with my life.", "fm"),
			u("*pours the tea slowly* (smiles) I'll always trust you, ronin.", "fm"),
			a("She looked at the lanterns over the river and whispered that she would love him until the end of time.", "fm"),
			u("haha nice, end scene"),
			u("okay", "n:ack"),
		}},
		{"2026-03-01T19:30:00Z", "memtrace", "config path (ENOENT with info), old-API PR, gofmt correction #2, Marcus", []turn{
			u("memtrace: the ENOENT we kept hitting was because the config lives in ~/.config/memtrace/config.yaml, not ~/.memtrace. Keep that path in mind.", "nwi"),
			a("Noted: config at ~/.config/memtrace/config.yaml. I'll make the loader print the path it tried."),
			u("For this PR use the old Recall API; the new one lands next week and I don't want to mix them.", "nl"),
			a("OK, this PR sticks to the old Recall(query string) signature."),
			a("Here's the patch; I committed it as 'recall: keep old API for v0.9 branch'."),
			u("Did you format it? Always run gofmt before commit, every single time. I keep finding unformatted files.", gofmtLesson),
			a("Sorry, I ran gofmt -w on engine/recall.go and amended the commit."),
			tool("Error: ENOENT: no such file or directory, open 'engine/recall_old.go'", "n:error_log"),
			tool("[truncated: output exceeded 30000 chars]", "n:truncated"),
			a("HEARTBEAT_OK", "n:heartbeat"),
			u("Marcus from my team reviews every memtrace PR, so write PR descriptions he can skim in a minute.", "f"),
			a("Short PR descriptions for Marcus: what, why, how to test."),
			u("k", "n:too_short"),
			a("NO_REPLY", "n:no_reply"),
		}},
		{"2026-03-07T18:00:00Z", "", "Chungju trip, Chungju lake view, rain and umbrella, knee update", []turn{
			u("지난 주말에 충주에 다녀왔어. 수진이랑 1박 2일로 가볍게.", "ep", "as:chungju"),
			a("충주 좋죠! 어디 어디 다녀오셨어요?"),
			u("충주호 전망이 정말 좋았어. 악어봉 올라가서 내려다보는데 호수가 끝없이 펼쳐져 있더라.", "f", "as:chungju"),
			a("악어봉 뷰 유명하죠. 사진 찍으셨어요?"),
			u("응 사진 많이 찍었어. 나중에 앨범 정리할 때 도와줘."),
			u("오늘 비가 많이 와서 편의점에서 우산 샀어. 벌써 우산이 집에 다섯 개야 ㅋㅋ", "ep", "dp:umbrella-vs-knee"),
			a("비 오는 날 우산 쇼핑이군요 ㅋㅋ 감기 조심하세요."),
			u("아 그리고 무릎은 요즘 재활 운동 덕분에 많이 좋아졌어. 계단도 이제 괜찮아.", "f", "dp:umbrella-vs-knee"),
			a("다행이에요! 재활을 꾸준히 하신 덕분이네요."),
			u("배가 아파", "gr"),
			a("저런, 많이 아프세요? 따뜻한 물 드시고 쉬어 보세요. 계속 아프면 병원에 가 보시고요."),
			u("근처에 지금 문 연 약국 좀 찾아줘"),
			a("저는 인터넷에 접속할 수 없어요. 지도 앱에서 '영업 중인 약국'으로 검색해 보세요.", "n:self_limitation"),
			u("넵", "n:ack"),
			a("HEARTBEAT_OK", "n:heartbeat"),
		}},
		{"2026-03-12T21:00:00Z", "memtrace", "corrections log review, panic correction #3, SQLite reaffirmed", []turn{
			u("memtrace 교정 로그 기능 리뷰해줘. corrections 테이블 쪽."),
			a("코드 봤어요. LessonKey가 비어 있으면 panic(\"empty lesson key\")로 처리하고 있네요. 그대로 둘까요?"),
			u("에러는 panic 말고 error로 반환해. 라이브러리 안에서 프로세스를 죽이면 안 된다고 몇 번을 말해.", panicLesson),
			a("맞아요, 죄송해요. ErrEmptyLesson을 반환하도록 바꿨습니다."),
			tool("Error: connect ECONNREFUSED 127.0.0.1:5432", "n:error_log"),
			a("예전 Postgres 실험 코드가 아직 남아 있었네요. SQLite만 쓰기로 하셨으니 지울게요."),
			u("응 지워. memtrace는 SQLite 하나로 간다. 나중에 Postgres로 바꿀 생각 없어.", "f"),
			tool("[compacted: 7 tool outputs removed]", "n:compacted"),
			a("알겠습니다", "n:ack"),
			u("이번 주 금요일까지 corrections 기능 마무리하는 게 목표야. 주말엔 쉬고 싶어.", "ep"),
			a("금요일까지 마무리할 수 있게 남은 작업을 정리해 드릴게요."),
			a("NO_REPLY", "n:no_reply"),
			u("ㅇㅋ", "n:ack"),
		}},
		{"2026-03-14T12:00:00Z", "", "birthday: mug from Jiyeon, dinner, no alcohol, joking declarations", []turn{
			u("It's my birthday today! Jiyeon sent me a handmade mug all the way from Busan.", "ep"),
			a("Happy birthday! A handmade mug from your sister is a lovely gift."),
			u("(laughs) you're my best friend forever, you always remember the little things", "fm"),
			a("*bows dramatically* At your service, birthday human."),
			u("We're having dinner at that Italian place in Hannam tonight, Sujin booked it weeks ago.", "ep"),
			a("Enjoy the dinner!"),
			u("I don't drink alcohol at all, so please never suggest wine pairings or bars.", "p"),
			a("Noted, no alcohol suggestions."),
			u("I live in Seoul, timezone KST (UTC+9), so schedule everything in Korean time.", "f"),
			u("thank you", "n:ack"),
			a("HEARTBEAT_OK", "n:heartbeat"),
			u("lol you're the best, I'd marry this chatbot honestly", "fm"),
			a("[MISSING]", "n:missing"),
		}},
		{"2026-03-20T10:00:00Z", "garden-app", "staging outage: port 5433, bundle id, Android minimum", []turn{
			u("garden-app staging is down again."),
			tool("Error: connect ECONNREFUSED 10.0.3.14:5432", "n:error_log"),
			u("The deploy failed with ECONNREFUSED because the staging DB port changed to 5433. Remember that port for garden-app.", "nwi"),
			a("Got it: the garden-app staging DB is on port 5433 now. I'll update the env file."),
			a("Updated .env.staging with DB_PORT=5433. The deploy is green."),
			u("For the store builds the bundle id is org.communitygarden.gardenapp; Apple rejected the old one.", "f"),
			a("Bundle id org.communitygarden.gardenapp recorded."),
			tool("[truncated: output exceeded 30000 chars]", "n:truncated"),
			a("I'm unable to read the whole Xcode build log because it was cut; could you paste the last 50 lines?", "n:self_limitation"),
			u("nah", "n:too_short"),
			u("We'll support Android 10 and newer only; anything older is under 2% of our testers.", "f"),
			a("Android minSdk set to 29."),
			sys("GatewayRestart: upstream gateway restarted (deploy 2026.03.20-1)", "n:gateway_restart"),
			u("ok thanks", "n:ack"),
			a("HEARTBEAT_OK", "n:heartbeat"),
		}},
		{"2026-03-28T17:00:00Z", "", "Chungju apples: sweet, a box for mom; mom lives in Daejeon", []turn{
			u("충주 사과가 정말 달고 맛있었어. 아삭하고 과즙이 많아서 깜짝 놀랐어.", "f", "as:chungju"),
			a("충주 사과는 일교차 덕분에 당도가 높기로 유명하죠."),
			u("그래서 엄마 드리려고 충주 사과 한 박스 샀어. 엄마가 과일 중에 사과를 제일 좋아하셔.", "f", "as:chungju"),
			a("어머님이 좋아하셨겠어요!"),
			u("엄마는 대전에 사셔. 이번 주말에 사과 들고 찾아뵐 거야.", "f", "dp:jjigae-vs-daejeon"),
			a("대전 가시는 길 조심하세요."),
			u("오늘 점심은 회사 근처에서 김치찌개 먹었어. 좀 짰지만 배불러.", "ep", "dp:jjigae-vs-daejeon"),
			a("짠 음식 드셨으면 물 많이 드세요."),
			u("네", "n:ack"),
			u("엄마랑 한 카톡 대화 요약해줄 수 있어?"),
			a("죄송하지만 카카오톡 대화 내용에는 접근할 수 없습니다. 필요한 부분을 복사해 주시면 요약할게요.", "n:self_limitation"),
			u("ㅋㅋ", "n:too_short"),
			a("NO_REPLY", "n:no_reply"),
		}},
	}
}
