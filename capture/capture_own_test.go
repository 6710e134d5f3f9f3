package capture_test

import "testing"

// ownCaptureFloor is the ratchet of testdata/capture_own.jsonl, the
// session 15 capture cases written before any mechanism was changed
// against them (76 cases: questions without question marks, requests
// phrased as statements, assistant acknowledgements, greetings, pastes
// up to a 4k-character log, conditions, fears, allergies, relationships,
// ownership, episodes with prices, dated plans, diary lines with
// correction-like phrases, voice-typed run-ons, bullets, Korean endings
// and romanised Korean). Raise it when a mechanism improves, never lower
// it.
const ownCaptureFloor = 75.0 / 76 // 57 on main before any change against the set, 66 after session 15, 72 after capture8, 74 after capture9's bare-connective split, 75 after capturemean's condition waiver of the length floors

// TestOwnCapture runs the own capture cases through the held-out
// harness (the same checks: store/drop, kind, type_not, statements).
func TestOwnCapture(t *testing.T) {
	heldoutCaptureRate(t, "../../capture/testdata/capture_own.jsonl", ownCaptureFloor)
}

// ownCapture8Floor is the ratchet of testdata/capture_own8.jsonl, cases
// written by the capture8 session before it changed the mechanisms they
// test (counterfactual daydreams against real conditionals, bare "and" /
// Korean -고 run-ons of two subjects against one account, relatives'
// occupations, statements and help lines beside a paste).
const ownCapture8Floor = 18.0 / 18 // 5 before any change against the set, 14 after capture8, 18 after capture9's bare-connective split

func TestOwnCapture8(t *testing.T) {
	heldoutCaptureRate(t, "../../capture/testdata/capture_own8.jsonl", ownCapture8Floor)
}

// ownCapture9Floor is the ratchet of testdata/capture_own9.jsonl, cases
// written by the capture9 session before it changed the mechanisms they
// test, weighted to kind from content (conditions, fears, allergies,
// relationships, possessions, places lived and habits are facts; dated
// happenings are episodes) and to messages of several independent
// statements (semicolons, ", and", Also, / 그리고 (또), Korean -고 / -는데
// joining two subjects) against one account that must stay whole.
const ownCapture9Floor = 48.0 / 50 // 44 on int17 before any change against the set, 46 after the bare-connective split, 48 after kind from the predicate

func TestOwnCapture9(t *testing.T) {
	heldoutCaptureRate(t, "../../capture/testdata/capture_own9.jsonl", ownCapture9Floor)
}

// ownCapture10Floor is the ratchet of testdata/capture_own10.jsonl, cases
// written by the capturemean session before it changed the mechanisms
// they test: statement splitting in Korean (-는데, -지만, -고, 그리고 and
// 참 / 또 with and without line breaks) and English (", and", "; ",
// Also, bullets) against one-statement controls, kind from the Korean
// predicate (past -았/었어 episodes against 있어 / 이야 states, 알레르기,
// 무서워, 진단 받았어), indirect requests and questions ("I was wondering
// if you could", "-해 줄 수 있어?", "혹시 … 알아?"), pastes by shape
// (YAML, a markdown table, a log, CSV and code after a statement) and
// diary lines recounting an instruction.
const ownCapture10Floor = 60.0 / 60 // 51 on main before any change against the set, 60 after indirect requests and questions, the paste announcement's statement, -지만, and diagnoses as conditions

func TestOwnCapture10(t *testing.T) {
	heldoutCaptureRate(t, "../../capture/testdata/capture_own10.jsonl", ownCapture10Floor)
}
