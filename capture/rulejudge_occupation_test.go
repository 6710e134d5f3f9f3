package capture

import (
	"testing"

	"memtrace/engine"
)

// A profession or workplace in a job's predicate is not a health fact;
// the same words about the speaker's care are.
func TestOccupationIsNotHealth(t *testing.T) {
	for text, job := range map[string]bool{
		"my sister-in-law Hana is a dentist in Daejeon": true,
		"he works as a doctor at a clinic in Suwon":     true,
		"엄마는 병원에서 일해":                                   true,
		"I'm seeing a doctor tomorrow about my knee":    false,
		"I have a dentist appointment on Friday":        false,
		"어제 병원 다녀왔어":                                    false,
	} {
		v, err := RuleJudge{}.JudgeCapture(t.Context(), engine.CaptureInput{Text: text, Role: "user"})
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Type != "health"; got != job {
			t.Errorf("%q: type %s, want a job (not health) %v", text, v.Type, job)
		}
	}
}
