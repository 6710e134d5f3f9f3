package textnorm

import (
	"reflect"
	"strings"
	"testing"
)

func TestSurface(t *testing.T) {
	tests := []struct{ in, want string }{
		{"그 프로젝트의 진행 상황을 알려줘", "프로젝트 진행 상황"},
		{"충주 시에 충주 사과가 맛있었지?", "충주 시 충주 사과 맛있"},
		{"What is the status of the project?", "status project"},
	}
	for _, tt := range tests {
		if got := Surface(tt.in); got != tt.want {
			t.Errorf("Surface(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"충주 사과가 정말 달고 맛있었어", []string{"충주", "사과", "달고", "맛있"}},
		{"사과", []string{"사과"}},
		{"memtrace의 SQLite 스토어", []string{"memtrace", "sqlite", "스토어"}},
		{"She painted apples and cherries", []string{"paint", "apple", "cherry"}},
		{"I'm running tests", []string{"run", "test"}},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQueryTermsReportsDropped(t *testing.T) {
	kept, dropped := QueryTerms("안녕 그 사과를 알려줘")
	if !reflect.DeepEqual(kept, []string{"안녕", "사과"}) {
		t.Errorf("kept = %q", kept)
	}
	if !reflect.DeepEqual(dropped, []string{"그", "알려줘"}) {
		t.Errorf("dropped = %q", dropped)
	}
}

func TestMemoTokensEqualTokens(t *testing.T) {
	mm := NewMemo(4) // small: the reset path runs too
	for _, s := range []string{
		"그 프로젝트의 진행 상황을 알려줘", "Caroline adopted running dogs; creative creators",
		"충주 사과가 맛있었지? memtrace의 SQLite", "the the a an I", "프로젝트 진행 running",
	} {
		got, want := mm.Tokens(s), Tokens(s)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Memo.Tokens(%q) = %q, want %q", s, got, want)
		}
	}
}
