package capture

import "testing"

// Cases of my own, not from the held-out set: each speech act in both
// languages, and the statements that must survive around them.
func TestReadActs(t *testing.T) {
	for _, c := range []struct {
		text string
		said bool // at least one statement
	}{
		{"which terminal font do people use for ligatures", false},
		{"서울에서 부산까지 KTX 몇 시간 걸려?", false},
		{"do you know a good ramen place near Hongdae", false},
		{"convert this CSV to a markdown table please", false},
		{"이 에러 메시지 무슨 뜻인지 설명해줘", false},
		{"cheers, all sorted now", false},
		{"잘 자~ 내일 봐", false},
		{"what if I quit and opened a cafe", false},
		{"만일 내가 고양이라면 하루종일 잘 거야", false},
		{"```sql\nSELECT * FROM users;\n```", false},
		{"can you review it?\n- step one: build\n- step two: test\n- step three: deploy", false},
		{"I moved to Incheon last spring and I work from home now.", true},
		{"우리 할머니는 여수에 사셔", true},
		{"My blood type is O, in case you ever help me fill in a form.", true},
		{"keep commit subjects under 50 characters from now on", true},
		{"답장할 때 항상 존댓말 써줘", true},
		{"I can't eat gluten. anyway, can you suggest a bakery?", true},
	} {
		acts := readActs(c.text)
		if got := statementText(acts) != ""; got != c.said {
			t.Errorf("%q: statement %v, want %v (acts %+v)", c.text, got, c.said, acts)
		}
	}
}
