package colfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func testRow(i int) (Row, string) {
	at := time.Date(2026, 3, 1, 9, 0, 0, i*1000+7, time.UTC)
	r := Row{
		ID: int64(10 + 3*i), Seq: int64(100 + i), AccessCount: int64(i % 5), SupersededBy: int64(i % 3),
		Importance: 0.1 * float64(i%10), Boost: -0.25 * float64(i%4), Hash: fmt.Sprintf("%064x", i*7919),
	}
	r.Times = [NTimes]time.Time{at, at.Add(time.Hour), {}, at.Add(-48 * time.Hour), {}}
	if i%4 == 0 {
		r.Times[ValidTo] = time.Time{}
		r.Times[SupersededAt] = at.Add(time.Minute)
	}
	r.Strs = [NStrs]string{fmt.Sprintf("k%d", i), "fact", "note", "", "active", "warm", "global", "user", fmt.Sprintf("s%d", i/12), "hashed-ngram-v2/256"}
	if i%7 == 0 {
		r.Hash = "not-a-hash 세션"
		r.Strs[Key] = ""
	}
	return r, fmt.Sprintf("memory %d 내용 %d", i, i*i)
}

func writeRows(t *testing.T, path string, n int) []Row {
	t.Helper()
	w := NewWriter(n)
	var rows []Row
	for i := range n {
		r, c := testRow(i)
		if !w.Add(&r, c) {
			t.Fatalf("row %d not kept", i)
		}
		rows = append(rows, r)
	}
	if err := w.Write(path, 0o600, 3, nil); err != nil {
		t.Fatal(err)
	}
	return rows
}

// Every row comes back as it was written, across the read buffer's chunks;
// a row of another seq or content, or one the file lacks, does not.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db"+Suffix)
	const n = 5000
	rows := writeRows(t, path, n)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Rows() != n || f.MaxSeq != 100+n-1 || f.Erasures != 3 {
		t.Fatalf("rows %d, max seq %d, erasures %d", f.Rows(), f.MaxSeq, f.Erasures)
	}
	for i, want := range rows {
		_, c := testRow(i)
		if _, ok := f.Row(want.ID-1, want.Seq, c); ok {
			t.Fatalf("row %d found under an id the file lacks", i)
		}
		switch i % 50 {
		case 1:
			if _, ok := f.Row(want.ID, want.Seq+1, c); ok {
				t.Fatalf("row %d found at another seq", i)
			}
			continue
		case 2:
			if _, ok := f.Row(want.ID, want.Seq, c+"!"); ok {
				t.Fatalf("row %d found with another content", i)
			}
			continue
		case 3:
			if _, ok := f.Row(want.ID, want.Seq, "x"+c[1:]); ok {
				t.Fatalf("row %d found with another content of the same length", i)
			}
			continue
		}
		got, ok := f.Row(want.ID, want.Seq, c)
		if !ok {
			t.Fatalf("row %d missing", i)
		}
		if got != want {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
}

// A torn, altered, truncated or foreign file, and a symbolic link, are
// refused whole.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db"+Suffix)
	writeRows(t, path, 300)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad"+Suffix)
	for name, b := range map[string][]byte{
		"truncated":      good[:len(good)-1],
		"body altered":   flip(good, len(good)-10),
		"header altered": flip(good, 30),
		"empty":          nil,
		"not one":        bytes.Repeat([]byte("x"), 200),
	} {
		if err := os.WriteFile(bad, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if f, err := Open(bad); !errors.Is(err, ErrInvalid) {
			f.Close()
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	link := filepath.Join(dir, "link"+Suffix)
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if f, err := Open(link); !errors.Is(err, ErrInvalid) {
		f.Close()
		t.Errorf("a symbolic link: %v, want ErrInvalid", err)
	}
	if _, err := Open(filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	// A rename over a symbolic link replaces the link, never its target.
	other := filepath.Join(dir, "target")
	if err := os.WriteFile(other, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	writeRows(t, link, 10)
	if b, _ := os.ReadFile(other); string(b) != "keep" {
		t.Fatal("the write followed the symbolic link")
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x40
	return c
}

// A row whose times a row cannot give back exactly, or out of id order, is
// not kept; out of order, the whole file is refused.
func TestAddRefuses(t *testing.T) {
	w := NewWriter(4)
	r, c := testRow(1)
	r.Times[CreatedAt] = r.Times[CreatedAt].In(time.FixedZone("KST", 9*3600))
	if w.Add(&r, c) {
		t.Fatal("a time not in UTC was kept")
	}
	r, c = testRow(2)
	if !w.Add(&r, c) {
		t.Fatal("row not kept")
	}
	r, c = testRow(1)
	if w.Add(&r, c) {
		t.Fatal("a row out of id order was kept")
	}
	if err := w.Write(filepath.Join(t.TempDir(), "x"+Suffix), 0o600, 0, nil); err == nil {
		t.Fatal("a file with rows out of order was written")
	}
}

// Remove deletes the file and any temporary file; a failed check renames
// nothing into place.
func TestRemoveAndCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db"+Suffix)
	writeRows(t, path, 20)
	w := NewWriter(1)
	r, c := testRow(0)
	w.Add(&r, c)
	if err := w.Write(path, 0o600, 0, func() error { return errors.New("an erasure came") }); err == nil {
		t.Fatal("the check's failure was not returned")
	}
	if f, err := Open(path); err != nil || f.Rows() != 20 {
		t.Fatalf("the old file was replaced: %v", err)
	} else {
		f.Close()
	}
	if err := os.WriteFile(path+".tmp-123", []byte("left"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "db"+Suffix+"*"))
	for _, l := range left {
		if filepath.Ext(l) != ".lock" {
			t.Errorf("%s is left", l)
		}
	}
	if err := Remove(path); err != nil {
		t.Fatalf("removing a missing file: %v", err)
	}
}
