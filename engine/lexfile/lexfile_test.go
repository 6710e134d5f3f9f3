package lexfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

type row struct {
	id, seq int64
	content string
	toks    []int32
}

var testTerms = []string{"garden", "unused", "tomato", "사과", "rain"}

func testRows() []row {
	return []row{
		{1, 10, "the garden and the tomato", []int32{0, 2}},
		{2, 11, "", nil},
		{4, 12, "사과 rain 사과", []int32{3, 4, 3}},
		{9, 40, "garden rain", []int32{0, 4}},
	}
}

func write(t *testing.T, path string, rows []row, check func() error) error {
	t.Helper()
	return Write(path, 0o600, 0, testTerms, len(rows), func(i int) (int64, int64, string, []int32) {
		r := rows[i]
		return r.id, r.seq, r.content, r.toks
	}, check)
}

// termsOf reads row r back as strings.
func termsOf(f *File, r row) ([]string, bool) {
	nos, ok := f.Row(r.id, r.seq, r.content)
	if !ok {
		return nil, false
	}
	var out []string
	for _, no := range nos {
		out = append(out, f.Term(int32(no)))
	}
	return out, true
}

func TestWriteOpenRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db"+Suffix)
	rows := testRows()
	if err := write(t, path, rows, nil); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Rows() != 4 || f.MaxSeq != 40 {
		t.Fatalf("rows %d, max seq %d", f.Rows(), f.MaxSeq)
	}
	if f.Terms() != 4 {
		t.Errorf("%d terms written, want the 4 some row uses (not %q)", f.Terms(), "unused")
	}
	for _, r := range rows {
		got, ok := termsOf(f, r)
		var want []string
		for _, no := range r.toks {
			want = append(want, testTerms[no])
		}
		if !ok || !slices.Equal(got, want) {
			t.Errorf("row %d: %q %v, want %q", r.id, got, ok, want)
		}
	}
	// A row is the file's only as it was written: another seq, another
	// content (even of the same length), an id it lacks.
	for _, r := range []row{{1, 13, rows[0].content, nil}, {4, 12, "사과 rain 사고", nil}, {4, 12, "사과 rain", nil}, {3, 11, "", nil}, {10, 40, "", nil}} {
		if got, ok := f.Row(r.id, r.seq, r.content); ok {
			t.Errorf("row %d seq %d %q: taken from the file (%v)", r.id, r.seq, r.content, got)
		}
	}
}

// A torn, truncated or tampered file, one of another build, and a symbolic
// link are refused whole.
func TestOpenRefusesWhatIsNotWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.db"+Suffix)
	if err := write(t, path, testRows(), nil); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"truncated":   good[:len(good)-4],
		"torn header": append([]byte("MTLEXF\x00\n"), make([]byte, len(good)-8)...),
		"empty":       {},
	}
	flip := slices.Clone(good)
	flip[len(flip)-2] ^= 1 // a token
	cases["a flipped bit"] = flip
	other := slices.Clone(good)
	other[16] ^= 1 // the writer's identity (the header checksum then fails too)
	cases["another build"] = other
	for name, b := range cases {
		p := filepath.Join(dir, "bad"+Suffix)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	link := filepath.Join(dir, "link"+Suffix)
	if err := os.Symlink(path, link); err != nil {
		t.Skip(err)
	}
	if _, err := Open(link); !errors.Is(err, ErrInvalid) {
		t.Errorf("a symbolic link: %v, want ErrInvalid", err)
	}
	// A write at a symbolic link replaces the link; its target is untouched.
	if err := write(t, link, testRows()[:1], nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !slices.Equal(b, good) {
		t.Error("a write through a symbolic link changed its target")
	}
	if st, err := os.Lstat(link); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the link is not a regular file after the write: %v", err)
	}
}

// A write whose check fails (an erasure came after its load began) leaves
// the file as it was, and no temporary file; Remove takes the file away.
func TestWriteCheckAndRemove(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.db"+Suffix)
	if err := write(t, path, testRows(), nil); err != nil {
		t.Fatal(err)
	}
	if err := write(t, path, testRows()[:1], func() error { return errors.New("an erasure") }); err == nil {
		t.Fatal("a write whose check failed reported success")
	}
	f, err := Open(path)
	if err != nil || f.Rows() != 4 {
		t.Fatalf("the file after a refused write: %v", err)
	}
	f.Close()
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "m.db"+Suffix+"*"))
	for _, p := range left {
		if p != path+".lock" {
			t.Errorf("%s left behind", p)
		}
	}
}

// A load takes the rows the file holds as they are, numbering their terms
// as the index does, and rewrites the file when it had none or too many
// rows were tokenised.
func TestLoadTakesCurrentRowsAndRewrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db"+Suffix)
	erasures := int64(0)
	count := func(context.Context) (int64, error) { return erasures, nil }
	rows := testRows()
	t.Setenv(FileEnv, "on")
	l := Start(ctx, path, 0o600, count)
	if _, ok := l.Terms(nil, 1, 10, rows[0].content, nil); ok {
		t.Fatal("terms from a file that is not there")
	}
	finish := func(l *Load, rows []row) error {
		return l.Finish(ctx, testTerms, len(rows), func(i int) (int64, int64, string, []int32) {
			return rows[i].id, rows[i].seq, rows[i].content, rows[i].toks
		})
	}
	if err := finish(l, rows); err != nil {
		t.Fatal(err)
	}
	// The index numbers terms its own way: the load maps them.
	index := map[string]int32{}
	termNo := func(s string) int32 {
		if no, ok := index[s]; ok {
			return no
		}
		index[s] = int32(len(index)) + 100
		return index[s]
	}
	l = Start(ctx, path, 0o600, count)
	got, ok := l.Terms([]int32{7}, 4, 12, rows[2].content, termNo)
	if !ok || !slices.Equal(got, []int32{7, 100, 101, 100}) {
		t.Fatalf("row 4: %v %v", got, ok)
	}
	if _, ok := l.Terms(nil, 9, 41, rows[3].content, termNo); ok {
		t.Fatal("row 9 at another seq taken from the file")
	}
	if hits, miss := l.Counts(); hits != 1 || miss != 1 {
		t.Fatalf("counts %d, %d", hits, miss)
	}
	if err := finish(l, rows); err != nil {
		t.Fatal(err)
	}
	// An erasure while a load ran: its rewrite is refused.
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	l = Start(ctx, path, 0o600, count)
	erasures++
	if err := finish(l, rows); err == nil {
		t.Fatal("a file written over an erasure")
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file is there after a refused write: %v", err)
	}
	t.Setenv(FileEnv, "off")
	if Start(ctx, path, 0o600, count) != nil {
		t.Fatal("a load with the file off")
	}
}

// A file written before an erasure it did not see (a build without the
// file erased and left it) is rewritten by the next load, or removed when
// that load writes none.
func TestLoadPurgesAFileOlderThanAnErasure(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db"+Suffix)
	rows := testRows()
	if err := write(t, path, rows, nil); err != nil { // written at 0 erasures
		t.Fatal(err)
	}
	one := func(context.Context) (int64, error) { return 1, nil }
	finish := func(l *Load, rows []row) error {
		return l.Finish(ctx, testTerms, len(rows), func(i int) (int64, int64, string, []int32) {
			return rows[i].id, rows[i].seq, rows[i].content, rows[i].toks
		})
	}
	// The erased row (id 4) is gone from the database: the load reads the
	// other three, all current, and still rewrites the file.
	t.Setenv(FileEnv, "on")
	kept := []row{rows[0], rows[1], rows[3]}
	l := Start(ctx, path, 0o600, one)
	for _, r := range kept {
		if _, ok := l.Terms(nil, r.id, r.seq, r.content, func(string) int32 { return 0 }); !ok {
			t.Fatalf("row %d not taken from the file", r.id)
		}
	}
	if err := finish(l, kept); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows() != 3 || f.Erasures != 1 {
		t.Fatalf("after the purge: %d rows, %d erasures", f.Rows(), f.Erasures)
	}
	for i := range f.Terms() {
		if f.Term(int32(i)) == "사과" {
			t.Error("the erased row's term is still in the file")
		}
	}
	f.Close()
	// Below MinRows, with the file not forced on, the load removes it.
	if err := write(t, path, rows, nil); err != nil {
		t.Fatal(err)
	}
	t.Setenv(FileEnv, "")
	if err := finish(Start(ctx, path, 0o600, one), kept); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file older than an erasure is still there: %v", err)
	}
}
