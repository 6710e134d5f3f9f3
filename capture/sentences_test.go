package capture

import (
	"slices"
	"testing"
)

func TestSplitSentences(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Don't call me Mr. Kim, just call me Jun.", []string{"Don't call me Mr. Kim, just call me Jun"}},
		{"Ask Dr. Lee first. Then e.g. Prof. Park, etc. and so on.", []string{"Ask Dr. Lee first", "Then e.g. Prof. Park, etc. and so on"}},
		{"Use Go 1.26. The file is main.go! Really?", []string{"Use Go 1.26", "The file is main.go", "Really"}},
		{"No. Not like that. See No. 5.", []string{"No", "Not like that", "See No. 5"}},
		{"J. R. R. Tolkien wrote it. I read it.", []string{"J. R. R. Tolkien wrote it", "I read it"}},
		{"김 박사님(Dr. Kim)께 먼저 여쭤보세요. 그다음에 회의해요.", []string{"김 박사님(Dr. Kim)께 먼저 여쭤보세요", "그다음에 회의해요"}},
		{"버전은 3.5예요. 탭 쓰지 마!\n그리고 끝", []string{"버전은 3.5예요", "탭 쓰지 마", "그리고 끝"}},
		{"He said \"stop.\" Then left.", []string{"He said \"stop\"", "Then left"}},
	} {
		got := splitSentences(c.in)
		if !slices.Equal(got, c.want) {
			t.Errorf("splitSentences(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
