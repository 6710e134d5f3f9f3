package filter

import "testing"

func TestLayers(t *testing.T) {
	f := New()
	for _, tc := range []struct {
		text   string
		l1, l2 string // expected pattern name, "" = kept
	}{
		{"I don't have access to that file, so I can't open it.", "self_limitation_en", "noise_self_limitation"},
		{"HEARTBEAT_OK", "heartbeat_ok", "noise_heartbeat"},
		{"HEARTBEAT_OK — all checks ok, nothing to report", "heartbeat_ok", "noise_heartbeat"},
		{"[compacted: tool output removed to free context]", "compacted_placeholder", "noise_compacted"},
		{"[compacted: 3 tool outputs removed]", "compacted_placeholder", "noise_compacted"},
		{"[truncated: output exceeded 30000 characters, showing the first 200 lines]", "truncated_placeholder", "noise_truncated"},
		{"Error: ENOENT: no such file or directory, open '/home/user/.openclaw/config.json'", "error_log_line", "noise_error_log"},
		{"Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)", "error_log_line", "noise_error_log"},
		{"NO_REPLY", "no_reply", "noise_no_reply"},
		{"[MISSING] the requested section could not be loaded from the store", "missing_placeholder", "noise_missing"},
		{"GatewayRestart: the gateway process restarted after config change", "gateway_restart", "noise_gateway_restart"},
		{"ok", "acknowledgement", "noise_ack"},
		{"Okay, thanks a lot!! got it 👍", "acknowledgement", "noise_ack"},
		{"네, 알겠습니다. 감사합니다!", "acknowledgement", "noise_ack"},
		{"ㅇㅋ ㅋㅋㅋ", "acknowledgement", "noise_ack"},
		{"죄송하지만 그 파일에 접근할 수 없습니다. 내용을 붙여 넣어 주시겠어요?", "self_limitation_ko", "noise_self_limitation"},
		{"I'm unable to access your calendar. Could you paste the event details here?", "self_limitation_en", "noise_self_limitation"},
		{`{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}]}`, "", "noise_heartbeat"}, // L1 reads the raw text; L2 parses the envelope
		{"hmm interesting", "too_short", ""},
		{"that sounds like a plan, let's see how it goes", "too_short_stripped", ""},
		{"<memory>User likes tea and lives in Busan since 2020</memory> sure thing", "too_short_stripped", ""},
		{"HEARTBEAT_OK\nAlso: your flight to Jeju moved to 10am on May 3, keep that in mind", "", ""},
		// Kept: carries information beside the noise word.
		{"deploy failed with ECONNREFUSED because the DB port changed to 5433 — remember that", "", ""},
		{"I'm unable to make meetings before 10am because of the school run.", "", ""},
		{"저는 땅콩 알레르기가 있어요", "", ""},
		{"I have a peanut allergy, remember it", "", ""},
		{"My daughter's birthday is March 3rd.", "", ""},
		{"Go 코드에서는 항상 탭으로 들여쓰기 해줘", "", ""},
		{"Please use pnpm instead of npm in every repository we work on together.", "", ""},
	} {
		m1, ok1 := f.L1(tc.text)
		if got := name(m1, ok1); got != tc.l1 {
			t.Errorf("L1(%q) = %q, want %q", tc.text, got, tc.l1)
		}
		m2, ok2 := f.L2(tc.text)
		if got := name(m2, ok2); got != tc.l2 {
			t.Errorf("L2(%q) = %q, want %q", tc.text, got, tc.l2)
		}
	}
}

func name(m Match, ok bool) string {
	if !ok {
		return ""
	}
	return m.Name
}

// TestScanReportsNoiseThatCarriesInformation: a cleanup sees the pattern,
// and that the text is not pure noise.
func TestScanReportsNoiseThatCarriesInformation(t *testing.T) {
	f := New()
	got := map[string]bool{}
	for _, m := range f.Scan("deploy failed with ECONNREFUSED because the DB port changed to 5433 — remember that") {
		got[m.Layer+"/"+m.Name] = m.Pure
	}
	if pure, ok := got["l1/error_log_line"]; !ok || pure {
		t.Errorf("l1/error_log_line: matched %v pure %v (all: %v)", ok, pure, got)
	}
	if pure, ok := got["l2/noise_error_log"]; !ok || pure {
		t.Errorf("l2/noise_error_log: matched %v pure %v (all: %v)", ok, pure, got)
	}
	ms := f.Scan("HEARTBEAT_OK")
	if len(ms) == 0 || !ms[0].Pure || ms[0].Name != "heartbeat_ok" {
		t.Errorf("Scan(HEARTBEAT_OK) = %+v", ms)
	}
	if ms := f.Scan("I moved to Busan in 2021 and I work from home on Fridays."); len(ms) != 0 {
		t.Errorf("clean text matched %+v", ms)
	}
}

// TestShortSelfStatements: a short self-statement clears L1 in either
// script (issue #29); the chatter of the same length is still dropped.
func TestShortSelfStatements(t *testing.T) {
	f := New()
	for _, text := range []string{
		"나 비건이야",
		"밀가루 안 먹어, 글루텐 프리 하는 중",
		"저는 채식주의자예요",
		"나 술 안 마셔",
		"I am vegan now",
		"I don't eat flour",
		"My cat is Nabi",
	} {
		if m, ok := f.L1(text); ok {
			t.Errorf("L1 dropped self-statement %q by %s", text, m.Name)
		}
	}
	for _, text := range []string{
		"ㅇㅋ", "ㅋㅋㅋ", "응 고마워", "ok", "thanks!", "음..", "잠깐만", "좋아 좋아", "hmm", "lol", "wait",
		"나 ㅋㅋ", "나 응", "I'm fine", "I'm ok thanks", "hmm interesting", "응 안 먹어",
	} {
		if _, ok := f.L1(text); !ok {
			t.Errorf("L1 kept chatter %q", text)
		}
	}
}
