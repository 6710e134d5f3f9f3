package store

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
	"memtrace/internal/half"
)

// The engine loads every memory at open (100k memories with 256-dimensional
// vectors must load in well under a second), so ForEachMemory reads rows
// straight from the driver and decodes them here without database/sql's
// per-column conversions, and adopts the driver's fresh copy of each vector
// blob as the vector itself instead of copying it again.

// memoryFromValues decodes one row of memoryColumns.
func memoryFromValues(v []driver.Value) (*engine.Memory, error) {
	var (
		m  engine.Memory
		d  valueDecoder
		ts [3]string
	)
	m.ID = d.int64(v[0])
	m.Key = d.string(v[1])
	m.Content = d.string(v[2])
	m.Kind = engine.Kind(d.string(v[3]))
	m.Type = d.string(v[4])
	m.OrigType = d.string(v[5])
	m.Status = engine.Status(d.string(v[6]))
	m.Tier = engine.Tier(d.string(v[7]))
	m.Scope = d.string(v[8])
	m.Importance = d.float64(v[9])
	m.Role = d.string(v[10])
	m.Session = d.string(v[11])
	ts[0], ts[1] = d.string(v[12]), d.string(v[13])
	m.AccessCount = int(d.int64(v[14]))
	m.Boost = d.float64(v[15])
	ts[2] = d.string(v[16])
	m.Hash = d.string(v[17])
	blob, isBlob := v[18].([]byte)
	if v[18] != nil && !isBlob {
		d.err = fmt.Errorf("embedding is %T, not a blob", v[18])
	}
	m.Embedder = d.string(v[19])
	m.Seq = d.int64(v[20])
	m.SupersededBy = d.int64(v[21])
	ts4, ts5 := d.string(v[22]), d.string(v[23])
	if d.err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, d.err)
	}
	var err error
	if m.CreatedAt, err = parseTime(ts[0]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.LastAccessedAt, err = parseTime(ts[1]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.BoostAt, err = parseTime(ts[2]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.ValidTo, err = parseNullTime(ts4); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.SupersededAt, err = parseNullTime(ts5); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if isBlob {
		if m.Embedding, err = decodeEmbedding(blob, false); err != nil {
			return nil, fmt.Errorf("memory %d: %w", m.ID, err)
		}
	}
	return &m, nil
}

// halfTag is the first byte of a vector stored as float16 (encodeEmbedding).
const halfTag = 'h'

// decodeEmbedding reads a little-endian float32 vector, or a float16 one
// after halfTag; nil stays nil. When the bytes are owned (no one else
// holds them) and the machine is little-endian, a float32 vector is the
// bytes themselves: at open this saves a copy of every vector (100 MB at
// 100k memories) and its allocation.
func decodeEmbedding(b []byte, owned bool) ([]float32, error) {
	if b == nil {
		return nil, nil
	}
	if len(b)%2 == 1 && b[0] == halfTag {
		v := make([]float32, len(b)/2)
		half.Decode(v, b[1:])
		return v, nil
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("stored embedding has %d bytes, not a multiple of 4", len(b))
	}
	n := len(b) / 4
	if n == 0 {
		return []float32{}, nil
	}
	if nativeLittleEndian() {
		if owned && uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(float32(0)) == 0 {
			return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), nil
		}
		// The stored layout is the in-memory layout: one copy of the bytes
		// instead of a conversion per float.
		v := make([]float32, n)
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(b)), b)
		return v, nil
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

func nativeLittleEndian() bool {
	return binary.NativeEndian.Uint16([]byte{1, 0}) == 1
}

// valueDecoder converts driver values, keeping the first type error.
type valueDecoder struct{ err error }

func (d *valueDecoder) string(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	d.fail(v, "text")
	return ""
}

func (d *valueDecoder) int64(v driver.Value) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case nil:
		return 0
	}
	d.fail(v, "integer")
	return 0
}

func (d *valueDecoder) float64(v driver.Value) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case nil:
		return 0
	}
	d.fail(v, "real")
	return 0
}

func (d *valueDecoder) fail(v driver.Value, want string) {
	if d.err == nil {
		d.err = fmt.Errorf("stored value %v (%T) is not %s", v, v, want)
	}
}

// forEachMemoryRaw streams every memory in id order through one statement
// on a reader connection: one statement reads one consistent snapshot.
func (db *DB) forEachMemoryRaw(ctx context.Context, fn func(*engine.Memory) error) error {
	conn, err := db.reader.Conn(ctx)
	if err != nil {
		return txError(db.path, "load memories", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("load memories: unexpected driver connection %T", dc)
		}
		vl := db.startVectorLoad(ctx, c)
		// Without the vector blobs to read (the vector file holds them) the
		// load reads through the page cache instead: the map put the whole
		// file (240 MB at 100k memories) in the resident set, and its page
		// faults cost more CPU than the copies (at 100k: peak RSS 490 →
		// 305 MB, 1.25 → 1.15 CPU-s).
		if vl == nil || vl.file == nil {
			if _, err := c.Exec(loadPragma, nil); err != nil {
				return txError(db.path, "load memories", err)
			}
			// The map goes when the load is done (after the statement
			// closes: deferred first, run last), and its pages leave the
			// resident set.
			defer c.Exec(unmapPragma, nil)
		}
		done := false
		defer func() { vl.finish(ctx, db, done) }()
		cl := db.startColumnLoad(ctx, c)
		defer func() { cl.finish(ctx, db, done) }()
		query := `SELECT ` + vl.columns() + ` FROM memories ORDER BY id`
		if cl.reading() {
			query = columnQuery(vl == nil || vl.file == nil)
		}
		rows, err := c.QueryContext(ctx, query, nil)
		if err != nil {
			return txError(db.path, "load memories", err)
		}
		defer rows.Close()
		vals := make([]driver.Value, loadColumnCount)
		if cl.reading() {
			vals = vals[:len(rows.Columns())]
		}
		ld := loadDecoder{vocab: map[string]string{}}
		for n := 0; ; n++ {
			if n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			err := rows.Next(vals)
			if errors.Is(err, io.EOF) {
				done = true
				return nil
			} else if err != nil {
				return txError(db.path, "load memories", err)
			}
			var m *engine.Memory
			blobless := vl != nil && vl.file != nil
			if cl.reading() {
				var whole bool
				m, whole, err = cl.memory(ctx, c, vals)
				blobless = blobless && !whole
			} else {
				m, err = ld.memory(vals)
				if errors.Is(err, errUnpackable) {
					m, err = readUnpacked(ctx, c, vals[0])
					blobless = false
				}
				if err == nil {
					cl.add(m)
				}
			}
			if err == nil && vl != nil {
				err = vl.vector(ctx, c, m, blobless)
			}
			if err != nil {
				return fmt.Errorf("load memories: %w", err)
			}
			if err := fn(m); err != nil {
				return err
			}
		}
	})
}

// loadColumns is the bulk load's row: memoryColumns with the short text
// columns packed into one, separated by unitSep. The driver's cost is per
// column (a value boxed, a string allocated), and the load reads 100k rows
// and more: one packed column instead of twelve took the 100k-memory load
// from about 450 to 380 ms.
// Free text (key, content, session) stays in columns of its own; the packed
// fields are a controlled vocabulary, hashes and timestamps, none of which
// can hold the separator.
const loadColumns = `id, key, content, session,
	kind||char(31)||type||char(31)||orig_type||char(31)||status||char(31)||tier||char(31)||
	scope||char(31)||role||char(31)||embedder||char(31)||hash||char(31)||
	created_at||char(31)||last_accessed_at||char(31)||boost_at||char(31)||
	ifnull(valid_to, '')||char(31)||ifnull(superseded_at, ''),
	importance, access_count, boost, embedding, seq, superseded_by`

const (
	loadColumnCount = 11
	loadPacked      = 14 // fields in the packed column
	unitSep         = '\x1f'
)

// loadDecoder decodes loadColumns rows. The packed column's vocabulary
// fields (kind, type, status, …) are interned: 100k memories share a
// handful of strings instead of each holding its own.
type loadDecoder struct {
	vocab  map[string]string
	fields [loadPacked]string
}

func (ld *loadDecoder) intern(s string) string {
	if v, ok := ld.vocab[s]; ok {
		return v
	}
	if len(ld.vocab) < 4096 {
		s = strings.Clone(s)
		ld.vocab[s] = s
	}
	return s
}

// errUnpackable: a packed field holds the separator (a type or role given
// with a 0x1f byte in it, say); the row is read again unpacked.
var errUnpackable = errors.New("packed fields hold the separator")

// memory decodes one row, or returns errUnpackable.
func (ld *loadDecoder) memory(v []driver.Value) (*engine.Memory, error) {
	var (
		m engine.Memory
		d valueDecoder
	)
	m.ID = d.int64(v[0])
	m.Key = d.string(v[1])
	m.Content = d.string(v[2])
	m.Session = d.string(v[3])
	packed := d.string(v[4])
	m.Importance = d.float64(v[5])
	m.AccessCount = int(d.int64(v[6]))
	m.Boost = d.float64(v[7])
	blob, isBlob := v[8].([]byte)
	if v[8] != nil && !isBlob {
		d.err = fmt.Errorf("embedding is %T, not a blob", v[8])
	}
	m.Seq = d.int64(v[9])
	m.SupersededBy = d.int64(v[10])
	if d.err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, d.err)
	}
	f := ld.fields[:]
	for i := range f {
		if i == len(f)-1 {
			f[i] = packed
			if strings.IndexByte(packed, unitSep) >= 0 {
				return nil, errUnpackable
			}
			break
		}
		j := strings.IndexByte(packed, unitSep)
		if j < 0 {
			return nil, errUnpackable
		}
		f[i], packed = packed[:j], packed[j+1:]
	}
	m.Kind = engine.Kind(ld.intern(f[0]))
	m.Type = ld.intern(f[1])
	m.OrigType = ld.intern(f[2])
	m.Status = engine.Status(ld.intern(f[3]))
	m.Tier = engine.Tier(ld.intern(f[4]))
	m.Scope = ld.intern(f[5])
	m.Role = ld.intern(f[6])
	m.Embedder = ld.intern(f[7])
	m.Hash = strings.Clone(f[8]) // not a substring: it would keep the whole packed string
	var err error
	if m.CreatedAt, err = parseTime(f[9]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.LastAccessedAt, err = parseTime(f[10]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.BoostAt, err = parseTime(f[11]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.ValidTo, err = parseNullTime(f[12]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if m.SupersededAt, err = parseNullTime(f[13]); err != nil {
		return nil, fmt.Errorf("memory %d: %w", m.ID, err)
	}
	if isBlob {
		if m.Embedding, err = decodeEmbedding(blob, true); err != nil {
			return nil, fmt.Errorf("memory %d: %w", m.ID, err)
		}
	}
	return &m, nil
}

// readUnpacked reads one memory with a column per field, on the load's
// connection (its statement stays open meanwhile; SQLite allows that).
func readUnpacked(ctx context.Context, c *sqlite3.SQLiteConn, id driver.Value) (*engine.Memory, error) {
	rows, err := c.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memories WHERE id = ?`, []driver.NamedValue{{Ordinal: 1, Value: id}})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	vals := make([]driver.Value, memoryColumnCount)
	if err := rows.Next(vals); err != nil {
		return nil, fmt.Errorf("memory %v: %w", id, err)
	}
	return memoryFromValues(vals)
}

// parseTime reads a time written by formatTime
// ("2006-01-02T15:04:05.000000000Z") without the generality of time.Parse,
// falling back to it for anything else.
func parseTime(s string) (time.Time, error) {
	if len(s) == len(timeLayout) && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' &&
		s[16] == ':' && s[19] == '.' && s[29] == 'Z' {
		year, ok1 := digits(s[0:4])
		month, ok2 := digits(s[5:7])
		day, ok3 := digits(s[8:10])
		hour, ok4 := digits(s[11:13])
		minute, ok5 := digits(s[14:16])
		sec, ok6 := digits(s[17:19])
		nsec, ok7 := digits(s[20:29])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && month >= 1 && month <= 12 && day >= 1 && day <= 31 &&
			hour < 24 && minute < 60 && sec < 60 {
			t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
			if t.Day() == day { // rejects 2026-02-31, which time.Date would normalise
				return t, nil
			}
		}
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
