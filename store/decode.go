package store

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
	"unsafe"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
)

// The engine loads every memory at open (100k memories with 256-dimensional
// vectors must load in well under a second), so ForEachMemory reads rows
// straight from the driver and decodes them here without database/sql's
// per-column conversions, and carves vectors out of shared blocks instead of
// allocating one per row.

// memoryFromValues decodes one row of memoryColumns. Vectors are carved from
// arena when it is not nil.
func memoryFromValues(v []driver.Value, arena *floatArena) (*engine.Memory, error) {
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
	if isBlob {
		if m.Embedding, err = decodeEmbedding(blob, arena); err != nil {
			return nil, fmt.Errorf("memory %d: %w", m.ID, err)
		}
	}
	return &m, nil
}

// decodeEmbedding reads a little-endian float32 vector; nil stays nil.
func decodeEmbedding(b []byte, arena *floatArena) ([]float32, error) {
	if b == nil {
		return nil, nil
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("stored embedding has %d bytes, not a multiple of 4", len(b))
	}
	v := arena.take(len(b) / 4)
	if len(v) == 0 {
		return v, nil
	}
	if nativeLittleEndian() {
		// The stored layout is the in-memory layout: one copy of the bytes
		// instead of a conversion per float (this is most of a load).
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(b)), b)
		return v, nil
	}
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

// floatArena hands out float32 slices from shared blocks. A nil arena
// allocates each slice on its own.
type floatArena struct{ block []float32 }

const arenaBlock = 1 << 16

func (a *floatArena) take(n int) []float32 {
	if a == nil || n > arenaBlock/4 {
		return make([]float32, n)
	}
	if len(a.block) < n {
		a.block = make([]float32, arenaBlock)
	}
	// The capacity is capped so that an append by the caller reallocates
	// instead of writing into the next memory's vector.
	s := a.block[:n:n]
	a.block = a.block[n:]
	return s
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
		rows, err := c.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memories ORDER BY id`, nil)
		if err != nil {
			return txError(db.path, "load memories", err)
		}
		defer rows.Close()
		vals := make([]driver.Value, memoryColumnCount)
		arena := &floatArena{}
		for n := 0; ; n++ {
			if n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			err := rows.Next(vals)
			if errors.Is(err, io.EOF) {
				return nil
			} else if err != nil {
				return txError(db.path, "load memories", err)
			}
			m, err := memoryFromValues(vals, arena)
			if err != nil {
				return fmt.Errorf("load memories: %w", err)
			}
			if err := fn(m); err != nil {
				return err
			}
		}
	})
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
