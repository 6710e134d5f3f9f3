package capture

import "sync"

// The gated types, their keyword tables and their exemplars: what the
// gate (gate.go) matches a message against.

// declarationTypes are the gated types.
func declarationTypes() []string {
	return []string{"milestone", "habit", "achievement", "gift", "shared_thing"}
}

func isDeclaration(typ string) bool {
	for _, t := range declarationTypes() {
		if t == typ {
			return true
		}
	}
	return false
}

func milestoneWords() lexicon {
	return lexicon{
		en: []string{"i love you", "love you", "i trust you", "trust you", "in love", "fell for", "engaged", "married", "marry", "proposed", "moved in together", "our first date", "build a life", "be together forever", "you mean everything", "boyfriend", "girlfriend", "relationship", "promoted", "promotion", "graduated", "retired", "had a baby", "was born", "pregnant",
			"new job", "got the job", "shipped", "launched", "went live", "first marathon", "anniversary ring"},
		ko: []string{"사랑해", "사랑한다", "사랑합니다", "믿어", "신뢰해", "사귀", "연애", "약혼", "결혼", "청혼", "프러포즈", "동거", "첫 데이트", "평생 함께", "승진", "졸업", "은퇴", "태어났", "출산", "임신",
			"주년", "완주했", "첫 풀코스", "출시", "런칭", "새 직장", "이직", "합격"},
	}
}

func habitWords() lexicon {
	return lexicon{
		en: []string{"every morning", "every evening", "every night", "every day", "every week", "every weekend", "each morning", "daily", "usually", "habit", "routine", "i always", "every monday", "every sunday", "twice a week", "once a week"},
		ko: []string{"매일", "아침마다", "저녁마다", "밤마다", "주말마다", "매주", "습관", "루틴", "항상 아침", "일주일에", "꾸준히"},
	}
}

func achievementWords() lexicon {
	return lexicon{
		en: []string{"finished my", "finished the", "completed", "passed the", "passed my", "won", "achieved", "earned", "got accepted", "got the job", "landed", "shipped", "published", "ran a marathon", "finally did", "certified"},
		ko: []string{"합격", "완주", "달성", "우승", "수상", "해냈", "완성했", "통과했", "취업", "출시했", "자격증", "등단"},
	}
}

func giftWords() lexicon {
	return lexicon{
		en: []string{"gift", "gave me", "got me", "bought me", "present for", "a present", "gifted", "surprised me with"},
		ko: []string{"선물", "사줬", "사 줬", "받았어", "줬어"},
	}
}

func sharedWords() lexicon {
	return lexicon{
		en: []string{"our song", "our place", "our spot", "our thing", "we both", "together we", "our tradition", "inside joke", "we always", "our favorite", "our favourite"},
		ko: []string{"우리 노래", "우리 둘", "우리만의", "둘이서", "함께 가던", "같이 가던", "우리가 좋아", "추억"},
	}
}

// gateLexicons are the gated types' keyword tables, built once (read only).
var gateLexicons = sync.OnceValue(func() struct{ milestone, habit, achievement, gift, shared lexicon } {
	return struct{ milestone, habit, achievement, gift, shared lexicon }{
		milestoneWords(), habitWords(), achievementWords(), giftWords(), sharedWords()}
})

// gateKeywords returns the declaration keywords of a gated type.
func gateKeywords(typ string) lexicon {
	switch typ {
	case "milestone":
		return gateLexicons().milestone
	case "habit":
		return gateLexicons().habit
	case "achievement":
		return gateLexicons().achievement
	case "gift":
		return gateLexicons().gift
	case "shared_thing":
		return gateLexicons().shared
	}
	return lexicon{}
}

// gateExemplars are genuine declarations of each gated type, English and
// Korean; their embedded centroid is what a candidate is compared with.
func gateExemplars(typ string) []string {
	switch typ {
	case "milestone":
		return []string{
			"I love you and I want to build a life with you.",
			"We got engaged last night, he proposed at the beach.",
			"We are getting married next spring.",
			"I got promoted to senior engineer today.",
			"I trust you completely, you mean everything to me.",
			"Our daughter was born this morning.",
			"We just shipped version 1.0 of our product today!",
			"We launched the app today, it is live in the stores.",
			"Big news: I got the new job, I start next month as a senior engineer.",
			"I finished my first marathon today!",
			"사랑해, 평생 함께하고 싶어.",
			"우리 약혼했어, 어제 청혼 받았어.",
			"내년 봄에 결혼해요.",
			"오늘 승진했어요.",
			"오늘 첫 풀코스 마라톤 완주했어!",
			"결혼 10주년 기념으로 반지를 선물했어.",
			"드디어 우리 앱을 출시했어!",
			"새 직장에 합격했어, 다음 달부터 출근해.",
			// Calibration (issue 29), as for achievement.
			"우리 드디어 결혼했어!",
			"오늘 드디어 승진했어!",
			"우리 딸이 오늘 아침에 태어났어.",
			"대학교 졸업했어, 드디어 졸업!",
		}
	case "habit":
		return []string{
			"I run 5 km every morning before work.",
			"I usually drink green tea every evening.",
			"Every weekend I go hiking with my dog.",
			"My daily routine starts with meditation.",
			"저는 매일 아침 6시에 달리기를 해요.",
			"주말마다 등산을 가는 습관이 있어요.",
			"매일 저녁 일기를 써요.",
			// Calibration (issue 29), as for achievement.
			"I go to the gym every morning before work.",
			"Every evening I walk the dog by the river.",
			"저는 매일 아침 커피를 마셔요.",
			"주말마다 자전거를 타요.",
			"매일 밤 자기 전에 책을 읽는 습관이 있어요.",
		}
	case "achievement":
		return []string{
			"I passed the bar exam!",
			"I finished my first marathon yesterday.",
			"We shipped version 2.0 of the app.",
			"I won first prize in the coding contest.",
			"I got accepted into the master's program.",
			"드디어 자격증 시험에 합격했어요.",
			"마라톤을 완주했어요.",
			"대회에서 우승했어요.",
			// Calibration (issue 29): declarations that share the type's
			// words with each other, so the leave-one-out reference is a
			// real similarity and not the floor.
			"I finally passed my driving test!",
			"I passed my certification exam on the first try.",
			"I won the hackathon with my team.",
			"We won the final, I scored the winning goal.",
			"I finished the course and earned my certificate.",
			"I completed my first triathlon.",
			"I finally finished my thesis and passed the defense.",
			"운전면허 시험에 드디어 합격했어!",
			"정보처리기사 자격증 시험에 합격했어요.",
			"첫 하프 마라톤 완주했어!",
			"해커톤에서 우리 팀이 우승했어.",
			"드디어 목표 체중 달성했어요!",
			"대학원 시험에 합격했어요.",
		}
	case "gift":
		return []string{
			"My sister gave me a watch as a birthday gift.",
			"He bought me a scarf as a present.",
			"I got my mom a necklace for her birthday gift.",
			"친구가 생일 선물로 시계를 사줬어요.",
			"엄마에게 목걸이를 선물했어요.",
			// Calibration: a leave-one-out reference needs three exemplars
			// a script (two give each the other's cosine, always 1.0).
			"남자친구가 기념일 선물로 목걸이를 사줬어.",
			"동생이 생일 선물로 향수를 줬어.",
			"아빠 생신 선물로 시계를 사 드렸어요.",
		}
	case "shared_thing":
		return []string{
			"That is our song, we both love it.",
			"The little cafe by the river is our place.",
			"We always watch the fireworks together, it's our tradition.",
			"그 노래는 우리 둘만의 노래야.",
			"강가 카페는 우리만의 추억의 장소예요.",
			// Calibration (issue 29), as for achievement.
			"That song is our song, we dance to it every year.",
			"The bench by the lake is our spot, we always sit there.",
			"Sunday pancakes are our tradition, we always make them together.",
			"We both love that little ramen place, it's our place.",
			"It's an inside joke we both still laugh about.",
			"Our favorite thing is walking by the river together.",
			"그 카페는 우리 둘만의 장소야.",
			"이 노래는 우리 둘의 노래야, 들을 때마다 그때 추억이 떠올라.",
			"일요일 팬케이크는 우리만의 전통이야.",
			"한강 산책은 우리 둘이 제일 좋아하는 추억이야.",
			"그 벤치는 우리가 처음 만난 우리만의 장소야.",
		}
	}
	return nil
}
