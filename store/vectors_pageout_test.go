package store_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"memtrace/engine/index"
)

// mappedRSS is the resident kilobytes of this process's mappings of files
// whose path ends in suffix.
func mappedRSS(t *testing.T, suffix string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	must(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	in, kb := false, 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && strings.HasSuffix(fields[5], suffix)
			continue
		}
		if in && len(fields) >= 2 && fields[0] == "Rss:" {
			n, _ := strconv.Atoi(fields[1])
			kb += n
		}
	}
	return kb
}

// After the open, the hashed vectors' slab leaves the resident set
// (ReleaseVectorPages) and every vector still reads the same and ranks
// the same: the rows are mapped again from the page cache as they are read.
func TestReleaseVectorPages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("MADV_PAGEOUT is Linux's")
	}
	ctx := context.Background()
	path, db, emb, texts, open := vectorFileFixture(t, "p.db", 3000, func(i int) string {
		return fmt.Sprintf("note %d on the orchard, 과수원 %d and the frost of week %d", i, i%23, i%7)
	})
	e := open()
	q, _ := e.Embed(ctx, "the orchard frost 과수원")
	want := e.VectorSearch(q[0], 30)
	before := mappedRSS(t, path+"-vectors")
	db.ReleaseVectorPages()
	after := mappedRSS(t, path+"-vectors")
	if before < 2000 || after > before/4 {
		t.Fatalf("the vector file's resident kB: %d before, %d after", before, after)
	}
	vecs, err := emb.Embed(ctx, texts)
	must(t, err)
	for i := int64(1); i <= int64(len(texts)); i++ {
		v, _ := e.VectorOf(i)
		if index.Cosine(v, vecs[i-1]) < 0.99999 {
			t.Fatalf("memory %d's vector changed", i)
		}
	}
	if got := e.VectorSearch(q[0], 30); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after the page-out: %v, want %v", got, want)
	}
}
