package capture

import "testing"

func TestRecountedInstruction(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"My PT told me to stop locking my knees during squats", true},
		{"today my lead said never push on Fridays, so I waited", true},
		{"the dentist finally told me to stop grinding my teeth at night", true},
		{"엄마가 밥 굶지 말라고 또 잔소리하더라", true},
		{"팀장님이 금요일엔 배포하지 말래", true},
		{"I told you to stop adding emojis", false},
		{"you said never to use tabs", false},
		{"never use tabs in this repo", false},
		{"하지 말라고 했잖아", false},
		{"내가 탭 쓰지 말라고 했지", false},
		{"my manager said the release is on Friday", false}, // no instruction marker
		{"Don't use var. My lead said that too", false},     // the instruction is the speaker's own
	} {
		if got := recountedInstruction(c.text); got != c.want {
			t.Errorf("recountedInstruction(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
