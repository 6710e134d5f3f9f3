package recall

import "testing"

func TestAsksWhen(t *testing.T) {
	for q, want := range map[string]string{
		"When did Caroline go to the support group?":    "when did",
		"when is my dentist appointment":                "when is",
		"When?":                                         "when",
		"How long has she had her current friends?":     "how long",
		"What year did they move to Seoul?":             "what year",
		"How often does John work out with his family?": "how often",
		"지수 출산 예정일이 언제야?":                               "언제",
		"헬스장 다닌 지 얼마나 오래 됐지?":                           "얼마나 오래",
		"치과 예약 며칠이었지?":                                  "며칠",
		"what do I eat when I'm sick?":                  "", // a clause, not a question about a time
		"what is my blood type":                         "",
		"언제나 먹는 약이 뭐였지?":                                "", // 언제나: always
		"언제든 연락하라던 사람 누구였지?":                            "",
	} {
		if got := asksWhen(q); got != want {
			t.Errorf("asksWhen(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestNamesTime(t *testing.T) {
	for text, want := range map[string]bool{
		"Caroline: I went to a LGBTQ support group yesterday.": true,
		"I've known these friends for 4 years":                 true,
		"we moved here in 2019":                                true,
		"Three times a week; it keeps us on track.":            true,
		"the concert is on 7 May":                              true,
		"see you next Friday":                                  true,
		"어제 치과 다녀왔어":                                           true,
		"3월에 이사했어":                                             true,
		"두 달 전에 그만뒀어":                                          true,
		"지난주에 지수랑 밥 먹었어":                                       true,
		"Caroline: The support group was so powerful.":         false,
		"you may want to march on":                             false, // modal and verb, not months
		"Melanie: Thanks! Is this your own painting?":          false,
		"우리 팀에 지수 씨 있잖아, structural engineer":                  false,
		"May: hello there":                                     false, // a speaker named May
	} {
		if got := namesTime(text); got != want {
			t.Errorf("namesTime(%q) = %v, want %v", text, got, want)
		}
	}
}
