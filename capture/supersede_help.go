package capture

// SupersedeHelp is `memtrace help updates`: the supersession rule and how
// recall treats a superseded memory.
const SupersedeHelp = `Knowledge updates: a newer fact supersedes an older one.

"I moved to Busan" supersedes "I live in Seoul". Nothing is deleted: the old
memory keeps its status and gains superseded_by (the newer memory), valid_to
(when it stopped holding) and superseded_at (when the link was recorded).
The link is an audited update in the batch of the capture or curator action
that made it: ` + "`memtrace rollback BATCH`" + ` removes it, and
` + "`memtrace supersede OLD --unlink`" + ` does by hand. In the TUI, s in Memories
links or unlinks by hand, and Curate's S queue lists the links made since the
last review (u undoes one, m marks them reviewed).

The rule, at capture (always on; precision first, since a wrong supersession
hides a true fact). A newly stored memory supersedes an older one when

  1. a clause of it carries a change marker (the first such clause states
     the change; clauses end at . ! ? ; — and commas):
       EN  moved to, moved … to, now, nowadays, these days, no longer,
           anymore, switched to/from, migrated from … to, new X is, "New
           X!", "New X: …", got/bought a new X, joined, started, stopped,
           quit, gave up (on), ditched, scrapped, shelved, dropped out of,
           left the club (team, band, job, company …), cancelled, called
           off, is off, I'm done with X, no more X, X fell through
           (apart), X is over, I'm off X ("I'm off melatonin"),
           unsubscribed from, uninstalled, deleted X for good (my X
           account), decided not to, had to cancel (stop), postponed,
           rescheduled, pushed (bumped) to next …, no longer at X (the
           old value after the preposition), "new … than X was", last day
           (shift) at, final shift, traded (X) in, sold, renamed … to, X
           is now NAME, X is VALUE now (the head noun before it: "rent's
           950,000 won now"; not with a pronoun head, "it's 50 mcg now
           instead of 75" is read by "instead of"), raised, increased,
           went up/down, instead, instead of X, Y now, not X (X the old
           value, an apposition of up to three words: "I'm on Android now,
           not iPhone"), replaced, upgraded to,
           changed … to, switched (gone, come) back to, retired the (my)
           X, cut out X, stepped down (away) from X, got
           married/engaged/divorced, broke up
       KO  이제, 요즘은, 이제 안 …, 이제 X 아니에요, 더 이상 안 …, 안 한 지 … 됐어, 바꿨어,
           갈아탔어, 옮겼어, 옮김, 이사했, 이사 끝, 입사했, 이직했, 퇴사했,
           퇴직했, 은퇴했, 입학했, 전학했, 들어갔, 그만두고, 그만뒀, 관뒀,
           그만 다녀, 그만했, 그만하기로, 끊었, 끊기로, 접었, 접기로, X 안
           가기로 했어 (안 …기로 했, 안 가게 됐어), 새 X는 Y보다 (Y the old value), X 무산됐어, 파토났어, 엎어졌어, X
           없어졌어, 사라졌어, 폐업했어, X
           버렸어, 취소했/됐, 해지했, 탈퇴했, 철회했, 연기됐, 미뤄졌, 올랐, 내렸,
           인상됐, 새로, 새 …, 시작했, X 말고, X 대신, 대신, 결혼했, 약혼했,
           이혼했, 헤어졌 — and their honorific
           forms (이사하셨, 퇴직하셨, 바꾸셨 …) for a relative's change
     Some markers are read by the form of the clause, not by its verb: a
     Korean negated predicate (안/못 …, -지 않아) under an adverb of
     contrast with the past (이제, 이젠, 이제는, 더는, 더 이상, 요즘은,
     요새는, 앞으로는 — not the bare 요즘, "lately") retracts what the
     clause names whatever the verb ("이젠 커피 안 마셔", "테니스는 더는 안
     쳐", "요새는 맥주 입에도 안 대"); the retraction stems 끊, 관두, 그만두
     and 접고 in any ending but an intention (끊고 태권도 다니기 시작했어,
     노션 접고 Obsidian 쓰는 중, 그만둬요); a Korean verbal noun in any
     하다/되다 ending that states the act (해지하고, 취소해서, 퇴사해요,
     변경되었습니다; 이직/입사 only completed: 이직하고, 이직했어); "X(으)로
     끝이에요" (the head ends); "X 아니고 이제 Y" (X the old value); EN a
     negated perfect over a stretch of time ("I haven't played bass since
     the band broke up", "haven't meditated in months": the object only,
     not the since-clause); the replacement frame "VERB-ed my X for Y" /
     "VERB-ed NAME for NAME" ("swapped my Kindle for a Kobo", "dropped Jira
     for Linear"; not when Y is a date, a number or a person: "paid my rent
     for March"); "ended my X"; a negation that "anymore" closes: the
     retracted thing is what the negation scopes over before it, and the
     words after it are another clause ("i dont go climbing on wednesdays
     anymore my shoulder is messed up" retracts climbing, not the
     shoulder)
     — a phrase is no marker where the rest of its clause makes it none:
     "I'm off to Lisbon", "I'm off work today", "done with work for
     today", "no more than 5", "the project is over budget";
  2. it is not a question ("did you switch to Rust?"), a hypothetical ("if I
     moved to Jeju…", 만약, …면, 싶어, 예정, 고민 중), an addition ("I now
     also use Postgres", another, second, 또, 추가로), a negated change
     ("I haven't switched", 안 바꿨어) — these three read in the marker's own
     sentence: "알바 그만뒀어. 좀 쉬고 싶어서" states the change, the wish is its
     reason; an addition only up to the marker's clause: "I quit the Spanish
     lessons, … and I never found another one" is no addition, nor is
     "another" after to/at/for ("moved to another team") — or someone else's
     change (the clause
     opens with he, she, they, 걔 …: "he quit his office job"; a Korean
     plural subject, "테니스 치는 사람들이 …", names people other than the
     speaker); nor a story of the past: a change its sentence dates a year
     or more before the older fact was stated ("back in 2019 when I sold the
     old Matiz", "재작년에 금요일 밤으로 바꿨거든", "three years ago") does not
     supersede that fact, which was said after it;
  3. the older memory is active, in the same scope, not superseded already,
     recorded before the new one, does not state the new value in its
     first clause ("then we moved to Seoul" over "I live in Seoul" is
     background, not a change), and is about the same subject. The subject
     is read from the marker's clause only: its head noun (after any colon)
     and the marker's object, up to the first preposition, number or time
     word; the new value after "to" or the word marked (으)로 is not the
     subject (before a verb that takes no object — 이사했, 입사했, 입학했 —
     neither are the bare words before it: "경기도 파주로 이사했어" names
     only where the speaker went), and words of other clauses or of an
     adjunct ("The build runner moved to rack 4 after the Redis upgrade")
     never are. A capitalised opener before a colon ("Huge news:") is no
     word of the change and no name. Either
       - both name the same subject of the lexicon (home, employer, car,
         phone, ci, database, school, manager, office, relationship,
         editor; e.g. car = car, drive, 차, 자동차, 운전), or one the marker
         implies when people move ("we moved to", "my sister moved to" →
         home; "joined"/입사/퇴사/"retired from" → employer; 입학 → school;
         "got married", 결혼했 → relationship; a thing that moves implies
         nothing). The slot is read from the sentence's structure, not
         from a word anywhere in it: "joined" a group ("a badminton club",
         "the company futsal team", "동호회에 들어갔어") is membership, no
         employer or school change; "live with X", "live alone", "X랑 같이
         살아", "혼자 살아" say who the speaker lives with, not where (a
         place, "… with my cat in Mapo", still names a home), in the new
         memory and in the old; the partner of a relationship change ("Hana
         and I split up", "broke up with Theo", "준형이랑 결혼했어") is the other
         party: the change is the speaker's, and it ends the speaker's older
         memory that names the partner ("My girlfriend Hana is a nurse",
         "남자친구 준형이랑 …"), not a fact about the partner ("Hana's sister
         …", "준형이는 … 일해"); the trail says the slot, e.g. "(slot:
         membership of a club (the object of joined), no employer or
         school change)"; or
       - a change whose new value is a common noun phrase and that names
         no thing of its own ("Switched to day shifts") is about the
         value's head noun (shift), which the older memory names with
         another modifier ("I'm on the night shift"); a name or a model
         ("Switched to Linear", "to a Pixel 9") has no such head; or
       - the marker takes an object — stopped X, quit X, gave up X, X is
         off, cancelled X, no longer X, switched X, moved X to, last day at
         X, traded in X, instead of X, X 바꿨어, X 옮겼어, X 그만두고, X
         끊었어, X 접었어, X 취소했, X 이제 안 …, X 말고, X 대신 — and the older
         memory names a word of X (after stemming and particle stripping:
         running ~ run, 고기는 ~ 고기) or its partner in the other language
         in the bilingual concept table (자전거 ~ bike, 커피 ~ coffee; a
         translation only, never a same-language synonym) or, for a
         loanword, its spelling in the other script by sound (넷플릭스 ~
         Netflix, 러닝해 ~ running, 필라테스 ~ Pilates: equal sound keys of
         three consonants or more, a Korean light verb 해/했 aside; 술 and
         Seoul share too little). This path needs no lexicon: any subject
         can be retracted — a medication, a subscription, a club, a tool,
         a named project. A retraction of a compound ("캠핑 예약 취소했어",
         "the salsa lessons got cancelled") does not end an older memory
         that shares only its modifier heading another noun there ("캠핑
         의자는 작년에 샀어", "my salsa shoes are from …"); and the person
         of its "for" phrase is whose change it is ("No more coffee for my
         dad" retracts nothing of the speaker's). An English object "X of
         Y" names X ("done with the first chapter of the Rust book" ends no
         reading of the book), unless X is a part or a quantity ("the rest
         of the tour"); a capitalised -ly word is a name ("stopped using
         Grammarly"), not an adverb ("Finally"). The head starts after a
         subordinator before the marker ("The deploy failed because the
         staging DB port changed to 5433" changes the port, not the
         deploy). An older memory that
         already negates X ("panic 쓰지 마", "never push to main") agrees
         with "panic 말고 error로" or "instead of pushing to main", and one
         that already retracts X ("다낭 여행 취소했어") with a later "the trip
         is off": it is not replaced; or
       - for "new X is", both name X.
     A change of a thing's value ("The gym raised prices", "김밥집 가격
     올랐어요", "Pebblenote is now Quillbox") is about the head noun before
     the marker (and, with one, the object: "the landlord raised the
     rent"); with none ("I raised my kids") it names no subject. Of a
     clause's markers the one that takes, ends or implies what it names and
     comes first states the change ("My brother quit Hyundai and joined
     Naver": quit Hyundai); a weak one (now, instead, started, 이제) only
     when the clause has no other. A Korean part of a code-switched clause
     is a clause of its own before an English run of three words or more
     ("신림 원룸 탈출 ㅋㅋ moved into a two-room in Guro": the speaker moved).
     The job frame "I'm a/an ROLE at ORG", "I work as a ROLE" names the
     employer whatever the role ("I'm an air traffic controller at Gimpo").
     The older memory is read the same way: its subject comes from its
     main clauses (a reason or time adjunct — "because …", "after …",
     "이사 준비 땜에", "수술 후에" — names none: "요가는 이제 안 가, 이사 준비
     땜에 바빠서" is about yoga, not about home), and for the speaker's own
     change only from the speaker's clauses: a clause that opens with he,
     she, they, 걔, 그분, or a name and a verb or possessive ("Dahye is a
     vet", "Kevin's birthday …"), and the clauses after it with no subject
     of their own, are that person's ("I gave up coffee" does not retract
     "he's into coffee gear"). An older memory whose first clause (up to
     "and", "but", 그리고 …) already names the new value — every word of the
     destination ("rack 4" is not "rack 2") or, with none, the names of the
     change's clause or of an apposition after it, a name with its model
     number ("Pixel 10"), in either script by sound (옥동 ~ Okdong, 해운대 ~
     Haeundae) or by the concept table — agrees with the change ("found a place in
     옥동" under "living in Okdong now"): it is not replaced, and the fact
     before it is. After a Korean retraction nothing is its object ("취소했어
     ㅠ Kevin's boss won't …" retracts the trip, not Kevin's birthday).
     Of the memories under each subject or word, the 32 most recent are
     considered;
  4. both are about the same people: the person words of the clause's
     subject (wife, son, sister, 아내, 딸, 친구 …) and its names ("Hana
     started first grade") occur in the old one, which names no other
     person ("my wife's new car" does not replace my car; "my brother
     moved to Busan" does not move me). Person words are one across the
     scripts (엄마 ~ mom, 아들 ~ son, 형 ~ brother: "엄마 … 이사하셨어요"
     replaces "Mom lives in Gimcheon", not "I live in Incheon"), relatives
     and neighbours count (cousin, aunt, 사촌, 이모, 할머니 …), and a person
     word with a name ("my niece Yuna") is that name. A preposition ends
     the clause's subject ("Living in Jinju now", "I'm on a Sony Xperia"
     name no one), and a Latin word with a Korean particle that is no
     person's ("Aurora라는 이름") names a thing. A sentence-initial capital that
     starts a longer phrase ("Huge news:", "Last Friday") is not a name,
     nor is a capital after a determiner ("dropped my Pixel", "the Han
     river": things). A month is a date after a preposition or next to a
     number ("in May", "last June", "May 3") and a person as the subject
     ("June moved to Busan" does not move me). A Korean given name with
     the affectionate -이 and a particle ("준형이는", "태민이가") is a person:
     a clause it opens is that person's. The older memory's people are
     those of its subject and possessors: a person in a prepositional or
     comitative phrase is a party to the speaker's clause, not whose it is
     ("I'm subletting a room in Itaewon from my friend Sang-ah", "I teach
     piano to two kids", "친구랑 배드민턴 쳐" are the speaker's; "My sister's
     lease", "친구는 배드민턴 쳐" are not).

Of several older memories that qualify, the one sharing the most words of
the subject, then the most words — counted as written (the same particle:
"커피" over "커피는") and by stem without stop words ("on wednesdays" ~
"every Wednesday"; a shared "my" does not count) — is superseded (ties:
the newest); never more than one. The capture trail says what it did and why, e.g.
  superseded #12 "I drive a 2015 Avante" — same subject "car", change marker "바꿨어"
  superseded #7 "I run 10k every Sunday" — same subject "run", change marker "stopped"
and, when a marker found nothing, why not. A memory that supersedes is
stored as a fact (it states the current value of one); a retraction
("the Osaka trip is off") takes the kind and importance of what it
retracts, so it is not forgotten before the plan it cancels.

A short update is not lost to the length floors: a user message whose
change marker ends, takes or implies what it names, with no guard and a
topic ("I stopped running", "the Osaka trip is off", "고기 이제 안 먹어",
"퇴사했어"), passes L1's too_short rules, as does a short routine
("수요일마다 필라테스 다녀", "Hana takes ballet on Saturdays") a later
retraction may end, a short dated
booking or plan ("다음 주 토요일 캠핑 예약했어, 가평으로", "booked the
cabin for next Friday") a later "취소했어" cancels, and a short
short routine on abbreviated weekdays ("볼링 동호회 화목 저녁에 나가요") or
per day ("하루에 커피 세 잔"), a short statement of a lexicon slot, the job
frame or the speaker's partner ("Mom lives in Gimcheon", "I live in
Incheon", "남자친구 준서는 요리사예요"), and a short
statement of a fact with a topic and an anchored comment — a Korean noun
marked 은/는/이/가 or an English "the/our/their X", then a number, a name or
a place ("회사는 판교에 있어", "배포는 Jenkins로 해" — a Latin name with a Korean
particle is a content word as the bare name is —, "The router sits in the
hall closet"); "the
weather is nice" and "날씨는 좋네" have no anchor and stay below the floor. A message of
several independent statements (memtrace help stages: statements) is read
statement by statement: each may supersede one older fact.

What the rule can link, in short: a move, job, school or relationship
change of the speaker, a relative or a named person (implied subjects,
honorific Korean included); any X that is stopped, quit, given up, cut
out, retired, stepped down from, cancelled, withdrawn (철회), off,
postponed, no longer done, replaced ("X 말고 Y", "Y instead of X"),
switched (or back), sold, renamed or moved, the slot of a new value's head
("switched to day shifts"), the value of a head noun ("rent's … now"), in either language and
across them where the concept table pairs the words; a value change of a
named thing ("the gym raised prices", "김밥집 가격 올랐어요"); a "new X is",
"New X!", "got a new X".

What it cannot link: a change whose words share nothing with the old fact,
in either language, and name no lexicon subject ("switched internet
provider to KT" over "we use SK Broadband" — that SK Broadband is an
internet provider is world knowledge); a cross-language update whose words
the concept table does not pair and that are no loanword of three
consonants or more ("펍 이제 안 가요" over "we go to the pub every Friday":
펍 and pub share two); a retraction of a hypernym ("술 끊었어" over "I drink beer on Fridays"); a retraction whose implied subject the old
fact states in words outside the lexicon ("left the company" over "I'm at
Kakao as an Android dev"); an adjunct clause in Korean ("MySQL 업그레이드
끝나고 … 옮겼어" may link the MySQL fact); a change stated without a marker
("I report to David now" has one, "David is my boss since the reorg" has
none), or with a verb no table or form above reads ("넷플릭스 정리했어",
"finished the ML specialisation", "Broke my lease early"), or an
intransitive end ("the sublet ended early": "X ended" is as often an
event's report, "the meeting ended early"); a retraction whose thing the
candidates share only as a modifier, when the other names it too ("gave
up on meditating" over "I meditate every morning" and "My meditation app
is Calm": the newest wins the tie); a part replaced, read against the
habit it belongs to ("테니스 라켓 줄 바꿨어" links "주말마다 테니스 쳐": the
compound's head 줄 is not required, since "도서관 자원봉사 시간이 변경되었습니다"
changes the volunteering, and a head rule measured a held-out loss); a
change whose old value is named only
in its reason ("Started biking to work instead, the bus was always
late"); an older memory that names the change's word only in an adjunct
("회사까지 지하철 타고 다녀" under "요즘은 회사까지 자전거로 출근해"); a second change in a message whose first marker clause links
nothing (only the first clause with a marker is read); a single sentence-initial capital that is a role,
not a name ("Landlord raised the rent" reads Landlord as a person); a
planned change in the progressive ("I'm relocating to Busan next month");
an old fact L1 dropped as too short (a message with no topic and
anchor, "그거 Jenkins로 해"); a Korean name without the affectionate -이 as the
subject of an old fact ("다혜는 수의사야" reads as the speaker's; "준형이는
…", pronouns and English names are someone else's); and more than one old
fact per statement. The judge,
when set, can catch those it is shown.

With the Ollama judge (ingest/import/mcp --judge MODEL). A message that
carries a change marker and no guard is shown to the capture judge with
up to 3 stored memories it may update (active, current, same scope,
recorded before it; the rule's own same-subject candidates first, then
lexical matches), each delimited as untrusted data and labelled C1, C2, C3.
The judge answers "updates": the labels it replaces (` + "`memtrace help judge`" + `
prints the schema). The answer is validated with the rest of the verdict:
an unknown or repeated label, or updates named while "store" is false,
fail it, and failing twice holds the message for review (needs_review),
nothing linked. The judge decides for the candidates it was shown: it can
catch an update the lexicon misses ("We switched the Kestrel frontend to
Svelte" replaces "The Kestrel frontend is written in React") and veto one
the rule would make. The rule decides the rest — an older memory stored
earlier in the same capture batch, which the judge cannot see yet — and
everything when the answer has no "updates" key or the judge failed. The
trail shows both, e.g.
  judge:ollama:qwen2.5:0.5b: the message updates none of the candidates shown (#12)
  rule: would supersede #12 "I live in Seoul" (same subject "home", change
        marker "moved to"); judge:ollama:qwen2.5:0.5b did not name it: kept current
and each link in the capture result carries by: rule or judge:MODEL.

Recall. At stage exclude a memory superseded at the recall's time (valid_to
and superseded_at at or before --at) is dropped, drop_kind superseded,
"superseded by #N on DATE" — unless the query asks about the past ("before
I moved", "used to", "previously", "예전에", "전에 … 살았", "원래") or
--include-superseded. Then it is recalled as a former fact: the trace item
carries superseded, superseded_by and valid_to, and its prompt line reads
  - [2026-01-05 note] [until 2026-04-03] I live in Seoul
With --at before the update the old fact is current and the new one does
not exist yet, so ` + "`memtrace compare \"where do I live\" --at-a … --at-b …`" + `
shows the switch: the old fact forgotten (superseded), the new one new.

Curator: ` + "`memtrace supersede OLD NEW [--valid-to DAY]`" + ` links by hand,
` + "`memtrace supersede OLD --unlink`" + ` unlinks; ` + "`memtrace show ID`" + ` prints the
chain, and show/list --json carry superseded_by, valid_to and supersedes.
`
