package capture

import "regexp"

// markerTable is the bilingual change-marker table, in order of strength.
// A pattern's group obj, when it has one, is the marker's object inside it.
func markerTable() []changeMarker {
	en := func(name, pattern, implies string, lits ...string) changeMarker {
		return changeMarker{name: name, re: regexp.MustCompile(`(?i)\b(?:` + pattern + `)\b`), implies: implies, lits: lits}
	}
	ko := func(name, pattern, implies string, lits ...string) changeMarker {
		return changeMarker{name: name, re: regexp.MustCompile(pattern), implies: implies, lits: lits}
	}
	open := func(m changeMarker) changeMarker { m.open = true; return m }
	retract := func(m changeMarker) changeMarker { m.open, m.retract, m.negates = true, true, true; return m }
	replaceOf := func(m changeMarker) changeMarker { m.open, m.negates = true, true; return m }
	intransitive := func(m changeMarker) changeMarker { m.intransitive = true; return m }
	headOnly := func(m changeMarker) changeMarker { m.open, m.headOnly = true, true; return m }
	objOnly := func(m changeMarker) changeMarker { m.objOnly = true; return m }
	needsHead := func(m changeMarker) changeMarker { m = headOnly(m); m.needsHead = true; return m }
	unless := func(m changeMarker, pattern string) changeMarker {
		m.notAfter = regexp.MustCompile(`(?i)` + pattern)
		return m
	}
	return []changeMarker{
		open(en("migrated from … to", `migrated\s+(?P<obj>(?:\S+\s+){0,4}?)from\s+\S+(?:\s+\S+){0,3}?\s+to`, "", "migrated")),
		// "switched back to Vim", "I've gone back to Vim after ten years
		// of VS Code": the old value returns; the verb of the perfect or
		// of a switch, not "went back to Busan for Chuseok" (a visit).
		open(en("back to", `(?:switched|switching|gone|come)\s+back\s+to`, "", "back")),
		open(en("switched to", `switched\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|from)`, "", "switched")),
		open(en("moved to", `moved\s+(?:to|into)`, "home", "moved")),
		open(en("moved … to", `moved\s+(?P<obj>(?:\S+\s+){1,3}?)to`, "", "moved")),
		open(en("relocated to", `relocated\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|into)`, "", "relocated")),
		retract(en("no longer", `no\s+longer|not\s+any\s*more|anymore`, "", "longer", "any")),
		retract(en("cancelled", `cancel(?:l?ed)|(?:had|decided|chose|ended\s+up\s+having)\s+to\s+cancel|ended\s+up\s+cancell?ing|called\s+off|(?:is|are|was|were|'s)\s+off`, "", "cancel", "called", "off")),
		retract(en("gave up", `(?:gave|given|giving)\s+up(?:\s+on)?|ditched|scrapped|shelved|mothballed|dropped\s+out\s+of`, "", "gave", "given", "giving", "ditched", "scrapped", "shelved", "mothballed", "dropped")),
		// The open retractions of a phrase rather than a verb: "I'm done
		// with X", "no more X", "X fell through", "X is over", "I'm off X",
		// "unsubscribed from X", "decided not to X" — each takes the
		// object the older memory names; the rest of the clause tells a
		// look-alike ("done with work for today", "no more than 5", "is
		// over budget", "I'm off to Lisbon").
		retract(unless(en("done with", `(?:i'm|i’m|i\s+am|im|we're|we\s+are|i've\s+been|all|finally|officially)\s+done\s+with|(?:i'm|i’m|i\s+am|im|we're)\s+finished\s+with`, "", "done", "finished"),
			`^\s*(?:it|this|that|him|her|them|you)\b|\b(?:for\s+(?:today|tonight|now|the\s+(?:day|night|week))|today|tonight|yet)\b`)),
		retract(unless(en("no more", `no\s+more`, "", "more"), `^\s*(?:than|questions|worries|excuses|problem)\b`)),
		retract(en("fell through", `(?:fell|falls|fallen|fall|falling)\s+(?:through|apart)`, "", "fell", "falls", "fallen", "fall")),
		retract(en("deleted X for good", `deleted\s+(?:my\s+|the\s+)?(?P<obj>(?:\S+\s+){1,2}?)(?:account|app|for\s+good)`, "", "deleted")),
		retract(unless(en("is over", `(?:is|are|was|were|'s)\s+(?:all\s+|finally\s+)?over`, "", "over"),
			`^\s*(?:there|here|the|a|an|my|our|his|her|their|budget|capacity|\d)`)),
		retract(unless(en("off X", `(?:i'm|i’m|i\s+am|im|we're|we\s+are|been|went|gone|came|come)\s+off`, "", "off"),
			`^\s*(?:to|for|at|on|in|work|duty|sick|today|tonight|tomorrow|now|again|the\s+(?:hook|grid|clock|record|charts))\b|^\s*$`)),
		retract(en("unsubscribed", `unsubscribed(?:\s+from)?|uninstalled|deactivated|decided\s+(?:not\s+to|against)`, "", "unsubscribed", "uninstalled", "deactivated", "decided")),
		retract(en("left the group", `left\s+(?:the|my|our)\s+(?P<obj>(?:\S+\s+){0,2}?(?:club|team|band|choir|group|crew|league|class|course|gym|job|company|firm|startup))`, "", "left")),
		open(en("postponed", `postponed|rescheduled|pushed\s+back|delayed|(?:pushed|bumped)\s+(?:to|until|till)\s+(?:next|later|tomorrow|the\s+following|(?:mon|tues|wednes|thurs|fri|satur|sun)day)`, "", "postponed", "rescheduled", "pushed", "bumped", "delayed")),
		// A thing taken out of use or a role left, by its object: "Retired
		// the ThinkPad", "I've cut out coffee", "stepped down from the
		// food bank shift".
		retract(en("retired X", `retired\s+(?:my|our|the)\s+(?P<obj>(?:\S+\s+){0,2}?\S+)`, "", "retired")),
		retract(unless(en("cut out", `(?:cut|cutting|cuts)\s+out`, "", "cut"), `^\s*(?:$|[.,!?]|on|for|of|in|at|early|halfway|and|again|the\s+middle)`)),
		retract(en("stepped down", `(?:stepped|stepping|step)\s+(?:down|away|back)\s+from`, "", "step")),
		retract(en("last day at", `(?:last|final)\s+(?:day|shift)\s+(?:at|with)|last\s+day\s+of\s+work|final\s+(?:day|shift|workday)|resigned\s+from|left\s+my\s+job\s+at|retired\s+(?:from|last|this|in|early)|(?:has|have|just|finally)\s+retired|retired\s*[.!]`, "employer", "last", "final", "resigned", "left", "retired")),
		open(en("traded in", `traded\s+in|traded\s+(?P<obj>(?:\S+\s+){1,3}?)in|sold|got\s+rid\s+of`, "", "traded", "sold", "rid")),
		open(en("renamed", `(?:renamed|rebranded)\s+(?P<obj>(?:\S+\s+){0,3}?)(?:to|as)`, "", "renamed", "rebranded")),
		headOnly(ko("is now NAME", `\b(?:is|are|Is|Are)\s+now\s+(?:(?i:called|named|known\s+as)\s+)?(?P<val>[A-Z])`, "", "now")),
		// "rent's 950,000 won now", "the standup is at 10 now": a copula
		// with a value and "now" changes its head noun's value.
		needsHead(en("X is Y now", `(?:is|are|'s|’s)\s+(?P<val>(?:\S+\s+){1,3}?)now`, "", "now")),
		headOnly(en("raised", `raised|increased|hiked|doubled|lowered|went\s+(?:up|down)|gone\s+(?:up|down)|goes\s+up|rose`, "", "raised", "increased", "hiked", "doubled", "lowered", "went", "gone", "goes", "rose")),
		en("got married", `got\s+(?:married|engaged|divorced|hitched)|tied\s+the\s+knot|broke\s+up|split\s+up`, "relationship", "got", "tied", "broke", "split"),
		// "The new place is closer than Mapo was", "새 집은 망원동보다 넓어":
		// a comparison with what held before names the old value; it is
		// the object an older memory names (as "instead of X").
		replaceOf(en("than X was", `(?:new|now)\b.{0,80}?\bthan\s+(?:the\s+|my\s+|our\s+|in\s+|at\s+)?(?P<obj>\S+(?:\s+\S+)?)\s+(?:was|were|did|used\s+to\s+be)`, "", "than")),
		en("new X is", `new\s+(?:\S+\s+){1,2}?(?:is|are)`, "", "new"),
		ko("new X", `(?i)\b(?:got|bought|have|has|getting|found)\s+(?:a\s+|my\s+|our\s+)?new\s+[a-z]|(?i:^\s*(?:a\s+|my\s+|our\s+)?new\s+[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?\s*(?::|!|$))`, "", "new"),
		en("joined", `joined`, "employer", "joined"),
		en("started", `started`, "", "started"),
		// A negated perfect over a stretch of time ends a habit, whatever
		// the verb: "I haven't played bass since the band broke up",
		// "haven't meditated in months".
		// The end of a standing thing of the speaker's, in either
		// language: "ended my Anytime Fitness membership", "U-10 coaching은
		// 이번 시즌으로 끝이에요" (the head noun is what ends).
		retract(en("ended my X", `ended\s+(?:my|our)\s+(?P<obj>(?:\S+\s+){0,3}?\S+)`, "", "ended")),
		retract(ko("끝이에요", `(?:^|\s)\S*(?:으로|로)\s+끝(?:이야|이에요|이예요|입니다|이다|임)`, "", "끝")),
		// "X 아니고 이제 Y": the new value with the old one negated beside
		// it ("비건은 아니고 이제 페스코야").
		replaceOf(ko("X 아니고 이제", `(?P<obj>\S+?)(?:은|는|이|가)?\s+아니고\s+(?:이제|요즘은|지금은)`, "", "아니고")),
		objOnly(retract(en("haven't … since", `(?:haven't|hasn't|haven’t|hasn’t|havent|hasnt|have\s+not|has\s+not)\s+(?P<obj>(?:\S+\s+){1,4}?)(?:since|in\s+(?:months|years|weeks|ages|forever|a\s+(?:while|year|month|long\s+time)))`, "", "haven", "hasn", "have not", "has not"))),
		// The replacement frame "VERB-ed X for Y" (swapped my Kindle for
		// a Kobo, dropped Jira for Linear, traded the bike for a scooter):
		// a past verb, its object (after a possessive or a name), "for"
		// and the new value (a/an/the noun or a name, not a date or a
		// person); the older memory names X.
		objOnly(replaceOf(ko("X for Y", `(?i:\b[a-z]+ed|\bleft|\bsold)\s+(?:(?i:my|our|the)\s+(?P<obj>(?:\S+\s+){0,2}?\S+)|(?P<name>[A-Z]\S*(?:\s+[A-Z]\S*)?))\s+(?i:for)\s+(?P<val>(?i:a|an|the)\s+\S+|[A-Z]\S*)`, "", "for"))),
		retract(en("stopped", `stopped|quit|(?:had|decided|chose)\s+to\s+(?:stop|give\s+up|drop)`, "", "stopped", "quit", "had to", "decided to", "chose to")),
		// "I'm on Android now, not iPhone", "we use pnpm now, not npm":
		// the old value in an apposition after the new one.
		objOnly(replaceOf(en("now, not X", `now,?\s+not\s+(?:the\s+|my\s+|our\s+|a\s+|an\s+)?(?P<obj>[^\s,.!?;]+(?:\s+[^\s,.!?;]+)?)\s*[.!?]*\s*$`, "", "now"))),
		replaceOf(en("instead of", `instead\s+of\s+(?:the\s+|my\s+|our\s+|a\s+)?(?P<obj>\S+)`, "", "instead")),
		en("instead", `instead`, "", "instead"),
		open(en("replaced", `replaced|upgraded\s+to|changed\s+(?P<obj>(?:\S+\s+){0,3}?)to`, "", "replaced", "upgraded", "changed")),
		en("now", `now|nowadays|these\s+days`, "", "now", "these"),
		open(ko("바꿨어", `바꿨|바꾸었|바뀌었|바꿈|바꾸셨|갈아탔|갈아타셨|변경\s*`+koHa, "", "바꿨", "바꾸었", "바뀌었", "바꿈", "바꾸셨", "갈아탔", "갈아타셨", "변경")),
		open(ko("옮겼어", `옮겼|옮기었|옮김|옮기셨|이전\s*(?:했|함|됐|완료)`, "", "옮겼", "옮기었", "옮김", "옮기셨", "이전")),
		intransitive(ko("이사했", `이사\s*(?:했|왔|갔|함|끝|완료|마쳤|하셨|오셨|가셨)`, "home", "이사")),
		intransitive(ko("입사했", `(?:입사|이직)\s*`+koHaPast, "employer", "입사", "이직")),
		retract(ko("퇴사했", `(?:퇴사|퇴직|은퇴)\s*`+koHa, "employer", "퇴사", "퇴직", "은퇴")),
		intransitive(ko("전학했", `전학\s*(?:했|갔|왔|함|하셨)`, "school", "전학")),
		retract(ko("해지했", `(?:해지|해약|탈퇴|철회)\s*`+koHa, "", "해지", "해약", "탈퇴", "철회")),
		open(ko("미뤄졌", `연기\s*`+koHa+`|미뤄졌|미뤘|미뤄짐`, "", "연기", "미뤄", "미뤘")),
		intransitive(ko("입학했", `입학\s*(?:했|함|하셨)|들어갔`, "school", "입학", "들어갔")),
		ko("결혼했", `(?:결혼|약혼|이혼)\s*(?:했|함|하셨|식\s*올렸)|헤어졌|헤어짐`, "relationship", "결혼", "약혼", "이혼", "헤어"),
		// The retraction verbs by stem, in any ending but the
		// intentional ones (끊으려고, 접을까 are guarded as hypotheticals):
		// past (끊었어), connective (끊고 태권도 다니기 시작했어, 노션 접고
		// Obsidian 쓰는 중), nominal (끊음) and causal (끊어서) alike.
		retract(ko("끊고", `(?:^|\s)\S*?(?:끊|관두|그만두|때려치)(?:고|어서|었고|었는데|은\s+지|어요|습니다)(?:\s|$|[.!,])|(?:그만|관)(?:둬요|둬|둡니다)(?:\s|$|[.!,])|\s접고(?:\s|$)`, "", "끊", "관두", "관둬", "그만", "때려치", "접고")),
		retract(ko("그만두고", `그만\s+다(?:녀|니|님)|그만\s*(?:하|두|다니|배우)기로|(?:접|끊|관두)기로|그만\s*했|그만함|그만두고|그만뒀|관뒀|관둠|관두고|때려쳤|그만\s+뒀|그만\s*둠|그만두셨|끊었|끊음|끊으셨|접었|접음|접으셨`, "", "그만", "관뒀", "관둠", "관두고", "때려쳤", "끊었", "끊음", "끊으셨", "접었", "접음", "접으셨", "기로")),
		// "X 안 가기로 했어" (decided not to go): a decision that ends X;
		// "X 무산됐어", "파토났어", "엎어졌어": X fell through.
		retract(ko("안 …기로 했", `(?:^|\s)(?:안|못)\s*\S*(?:기로\s*(?:했|함|하셨|결정)|게\s*(?:됐|되었|됨))`, "", "기로", "게")),
		retract(ko("무산됐", `무산\s*(?:됐|되었|됨)|파토\s*(?:났|남)|엎어졌|없던\s*일로`, "", "무산", "파토", "엎어졌", "없던")),
		retract(ko("없어졌", `없어졌|없어짐|사라졌|폐업\s*(?:했|함|됐)`, "", "없어", "사라졌", "폐업")),
		retract(ko("버렸", `(?P<obj>\S*[^아어여워해와봐줘져가나\s])\s+(?:내\s*)?버렸`, "", "버렸")),
		headOnly(ko("올랐", `올랐|올라갔|내렸|(?:인상|인하)\s*(?:됐|했|되었|됨)`, "", "올랐", "올라갔", "내렸", "인상", "인하")),
		retract(ko("취소했", `취소\s*`+koHa+`|(?i:cancel)\s*(?:했|됐|됨|함)`, "", "취소", "cancel")),
		retract(ko("안 한 지", `(?:안|못)\s*\S*\s+지\s+(?:\S+\s+){0,3}?(?:됐|되었|넘었|됨)`, "", "지")),
		// "이제 네이버 소속 아니에요", "더 이상 학생 아니야": no longer X.
		retract(ko("이제 … 아니", `(?:이제|더\s*이상)\s+(?P<obj>(?:\S+\s+){1,3}?)아니(?:야|에요|예요|고|다|라|거든|지만)`, "", "아니")),
		// A negated predicate under an adverb of contrast with the past —
		// 이제, 이젠, 이제는, 더는, 더 이상, and the contrastive topic of
		// 요즘은, 요새는, 앞으로는 — ends what it names, whatever the verb
		// ("이젠 커피 안 마셔", "테니스는 더는 안 쳐", "요새는 맥주 입에도 안
		// 대", "이제 아침에 빵 먹지 않아"); the bare 요즘 (lately) is no
		// contrast ("요즘 바빠서 운동 못 해").
		retract(ko("이제 안", `(?:^|\s)(?:이제|이젠|이제는|더는|더\s*이상|요즘(?:은|엔)|요새(?:는|엔)|앞으로(?:는)?)\s+(?:(?P<obj>(?:\S+\s+){0,2}?\S+)\s+)?(?:안|못)\s`, "", "이제", "이젠", "이상", "더는", "요즘", "요새", "앞으로")),
		retract(ko("이제 … 않", `(?:^|\s)(?:이제|이젠|이제는|더는|더\s*이상|요즘(?:은|엔)|요새(?:는|엔)|앞으로(?:는)?)\s+(?P<obj>(?:\S+\s+){0,2}?)\S+지\s*(?:않|못\s*해)`, "", "않", "못")),
		ko("더 이상 … 안", `더\s*이상`, "", "이상"),
		replaceOf(ko("새 … 보다", `(?:^|\s)(?:새|이제)\s+(?:\S+\s+){0,3}?(?P<obj>\S+?)보다(?:\s|$)`, "", "보다")),
		ko("새로", `새로|(?:^|\s)새\s`, "", "새"),
		ko("시작했", `시작했`, "", "시작했"),
		replaceOf(ko("말고", `(?P<obj>\S*[^지\s])\s+(?:말고|대신)(?:\s|$)`, "", "말고", "대신")),
		ko("대신", `대신`, "", "대신"),
		ko("이제", `이제|요즘은`, "", "이제", "요즘은"),
	}
}

// koHa are the endings of a Korean verbal noun's 하다/되다 in which it
// states what was done or is being done, whatever the noun: past (해지했어,
// 취소됐어), formal (해지했습니다), connective (해지하고 Bitwarden으로 …,
// 취소해서), present of a decision (퇴사해요, 해지합니다); koHaPast the
// ones of a completed act only (이직했어, 이직하고), since a bare present
// of a move or a new job (이직해요) is as often a plan.
const (
	koHa     = `(?:했|함|됐|됨|하셨|되었|되어|되고|하고|해서|해요|합니다|됩니다)`
	koHaPast = `(?:했|함|하셨|하고(?:\s|$)|되었)`
)
