package capture

// The subject lexicon and the person words of the supersession rule
// (supersede_rule.go): the closed tables beside its open subject path.

// subjectEntry is one subject of the lexicon: whole words, word prefixes
// (ending in *) and phrases, EN and KO.
type subjectEntry struct {
	name  string
	words []string
}

func subjectTable() []subjectEntry {
	return []subjectEntry{
		{"home", []string{"i live", "we live", "i lived", "we lived", "i'm living", "living in", "lives in", "my apartment", "our apartment",
			"my house", "our house", "my flat", "our flat", "my address", "hometown", "my place", "our place", "a place in", "renting", "i rent", "we rent",
			"살아", "살고", "살았", "사는", "살아요", "사세요", "사시고", "사시는", "사십니다", "이사*", "거주*", "우리 집", "집은", "집이", "월세*", "전세*", "자취*"}},
		{"employer", []string{"work at", "work for", "works at", "working at", "job", "company", "employer",
			"회사*", "직장*", "다녀", "다니고", "다녀요", "입사*", "근무*", "이직*", "일해", "일해요", "일하고", "일하는", "일합니다"}},
		{"car", []string{"car", "cars", "drive", "drives", "driving", "vehicle",
			"차", "차는", "차를", "차가", "차로", "자동차*", "운전*"}},
		{"phone", []string{"phone", "smartphone", "iphone", "galaxy", "pixel",
			"핸드폰*", "휴대폰*", "폰", "폰은", "폰을", "폰이", "스마트폰*", "아이폰*", "갤럭시*"}},
		{"ci", []string{"ci", "jenkins", "github actions", "circleci", "gitlab ci", "buildkite", "빌드 서버", "젠킨스*"}},
		{"database", []string{"database", "databases", "db", "mysql", "postgres", "postgresql", "sqlite", "mongodb",
			"데이터베이스*", "디비*"}},
		{"school", []string{"kindergarten", "preschool", "grade", "school", "elementary",
			"유치원*", "어린이집*", "학년*", "학교*", "초등학교*", "입학*"}},
		{"manager", []string{"manager", "boss", "team lead", "report to", "reports to", "reporting to", "매니저*", "팀장*", "상사*"}},
		{"office", []string{"office", "사무실*"}},
		{"relationship", []string{"engaged", "engagement", "fiancé", "fiancée", "fiance", "fiancee", "wedding", "married", "marriage",
			"dating", "divorced", "약혼*", "결혼*", "연애*", "사귀*", "이혼*", "예비신부", "예비신랑", "예비 신부", "예비 신랑"}},
		{"editor", []string{"editor", "vim", "neovim", "emacs", "vscode", "vs code", "에디터*", "편집기*"}},
	}
}

// personWords name people; two facts about different people's things are
// not one subject ("my wife's new car" is not my car).
var personWords = []string{"wife", "husband", "spouse", "partner", "son", "daughter", "kid", "kids",
	"mom", "mother", "dad", "father", "brother", "sister", "friend", "colleague", "girlfriend", "boyfriend",
	"cousin", "aunt", "uncle", "grandma", "grandmother", "grandpa", "grandfather", "nephew", "niece", "neighbor", "neighbour", "roommate", "coworker",
	"사촌*", "이모*", "고모*", "삼촌*", "할머니*", "할아버지*", "조카*", "이웃*", "룸메*",
	"아내*", "와이프*", "남편*", "아들*", "딸", "딸이", "딸은", "딸의", "엄마*", "어머니*", "아빠*", "아버지*", "누나*", "여동생*", "남동생*", "형", "형이", "형은",
	"오빠*", "언니*", "동생*", "친구*", "동료*", "여자친구*", "남자친구*"}
