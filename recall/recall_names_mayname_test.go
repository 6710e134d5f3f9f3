package recall

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// mayName skips Hangul by its lead bytes; it must still see every capital
// after the first character, of any script (Cyrillic Ж, Latin Extended-D
// Ꜳ, which share lead bytes with Hangul's neighbours), and no other.
func TestMayNameSeesEveryCapital(t *testing.T) {
	pool := []rune("a Z 세나가 ㄱ ꀀ Ꜳ ꜳ Ж ж É é 1 . 힣 ퟻ 가")
	r := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		var sb strings.Builder
		for k := 1 + r.IntN(8); k > 0; k-- {
			sb.WriteRune(pool[r.IntN(len(pool))])
		}
		s := sb.String()
		want := false
		for i, c := range s {
			if i > 0 && unicode.IsUpper(c) {
				want = true
			}
		}
		if got := mayName(s); got != want {
			t.Fatalf("mayName(%q) = %v, want %v", s, got, want)
		}
	}
}
