package capture

import (
	"testing"

	"memtrace/engine"
)

// A short Korean past event, or what someone close to the user did,
// passes the length floors; weather, a question or a bare verb do not.
func TestKoreanShortEvent(t *testing.T) {
	for text, kept := range map[string]bool{
		"어제 친구 만나고 영화 봤어":       true,
		"엄마가 밥 굶지 말라고 또 잔소리하더라": true,
		"남편이 오늘 저녁 해줬어":         true,
		"오늘 날씨 진짜 좋네":           false,
		"어제 뭐 했는지 기억나?":         false,
		"아 진짜 피곤했어":             false,
	} {
		if got := statesKoEvent(engine.Message{Role: "user", Text: text}) != ""; got != kept {
			t.Errorf("%q: kept %v, want %v", text, got, kept)
		}
	}
}
