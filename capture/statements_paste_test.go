package capture

import (
	"strings"
	"testing"
)

func TestMachineLine(t *testing.T) {
	for _, c := range []struct {
		line  string
		block bool
		want  bool
	}{
		{"2026-09-14T03:00:00.000Z ERROR [svc=checkout] retrying latency_ms=372", false, true},
		{"panic: runtime error: invalid memory address or nil pointer dereference", true, true},
		{"[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x4a2f1c]", true, true},
		{"goroutine 17 [running]:", true, true},
		{"$ kubectl get pods -n payments", true, true},
		{"dev@box:~/shop$ make test", true, true},
		{"api-7d9f8b6c5-x2k4p           1/1     Running            0          3d", true, true},
		{"WARN disk almost full on /var", true, true},
		{"error handling is my weak spot", false, false},
		{"I moved to Incheon last month and my daughter started kindergarten", true, false},
		{"my ip at home is 10.0.0.12 these days", false, false},
		{"Panic attacks are rare for me now.", false, false},
		{"나 땅콩 알레르기 있거든", false, false},
	} {
		if got := machineLine(c.line, c.block); got != c.want {
			t.Errorf("machineLine(%q, %v) = %v, want %v", c.line, c.block, got, c.want)
		}
	}
}

func TestWantRequest(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"I need the quarterly numbers summarised in a table by 5", true},
		{"I'd like a shorter version of that email", true},
		{"need a bash one-liner that renames every file", true},
		{"I want this translated into Japanese", true},
		{"I need the slides by Friday", true},
		{"I need to renew my passport by June", false},
		{"I want a dog so badly", false},
		{"I need glasses for reading now", false},
		{"I'd like to move to Busan someday", false},
		{"I need you to check this", false}, // headRequest's
	} {
		if got := wantRequest(strings.Fields(lexNorm(c.s))); got != c.want {
			t.Errorf("wantRequest(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"이 메일 좀 더 정중하게 다듬어 줬으면 좋겠어", true},
		{"이것 좀 봐 주시면 감사하겠습니다", true},
		{"엄마가 반찬을 보내 줬어", false},
	} {
		if got := koWishRequest.MatchString(c.s); got != c.want {
			t.Errorf("koWishRequest(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
