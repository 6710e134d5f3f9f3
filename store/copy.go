package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memtrace/engine"
)

// copyTables are the tables of a memory space in an order in which every
// reference points at a row already copied (memories.superseded_by, which
// can point forward, is set in a second pass). The migrations table is not
// copied: each database records its own.
var copyTables = []struct{ name, order string }{
	{"memories", "id"},
	{"memory_sources", "memory_id"},
	{"captures", "id"},
	{"corrections", "id"},
	{"lesson_sightings", "id"},
	{"proposals", "id"},
	{"audit", "id"},
	{"review_queue", "id"},
	{"golden_runs", "rowid"}, // no longer written (its queries had no caller); copied so an old database loses nothing
	{"traces", "id"},
	{"settings", "key"},
	{"counters", "name"},
	{"batches", "batch"},
	{"erasures", "id"},  // tombstones (issue 31)
	{"artifacts", "id"}, // files written outside the database
}

// CopyReport is what Copy copied and verified.
type CopyReport struct {
	From   string         `json:"from"`
	To     string         `json:"to"`
	Tables map[string]int `json:"tables"` // rows per table, the same on both sides
	// SHA256 is the content checksum of every copied row of both
	// databases, in a form that does not depend on the backend.
	SHA256 string `json:"sha256"`
}

// Copy copies the whole memory space src into dst — memories with their
// vectors, audit, batches, proposals, captures, the review queue, lessons,
// golden runs, traces, settings and counters — keeping every id, in one
// transaction on dst. It refuses a dst that holds anything, and before
// committing checks that dst's row counts and content checksum equal src's
// (read from one snapshot); on any difference nothing is written.
func Copy(ctx context.Context, src, dst *DB) (*CopyReport, error) {
	if src.path == dst.path && src.space == dst.space {
		return nil, engine.Errorf(engine.EINVALID, "--from and --to are the same database (%s); copy to a new one", src.path)
	}
	rep := &CopyReport{From: src.path, To: dst.path, Tables: map[string]int{}}
	var want string
	err := src.read(ctx, func(stx *Tx) error {
		var err error
		want, err = spaceChecksum(ctx, stx, rep.Tables)
		if err != nil {
			return err
		}
		return dst.write(ctx, func(dtx *Tx) error {
			if err := checkEmpty(ctx, dtx, dst.path); err != nil {
				return err
			}
			if _, err := dtx.tx.ExecContext(ctx, `DELETE FROM counters`); err != nil {
				return err
			}
			dtx.seqLoaded, dtx.seqDirty = false, false // the counter row is the source's now
			dtx.batchLoaded, dtx.idLoaded = false, false
			for _, t := range copyTables {
				if err := copyTable(ctx, stx, dtx, t.name, t.order); err != nil {
					return fmt.Errorf("copy %s: %w", t.name, err)
				}
			}
			if dst.pg {
				if err := resetIdentities(ctx, dtx); err != nil {
					return err
				}
			}
			got := map[string]int{}
			sum, err := spaceChecksum(ctx, dtx, got)
			if err != nil {
				return err
			}
			for _, t := range copyTables {
				if got[t.name] != rep.Tables[t.name] {
					return engine.Errorf(engine.EINTERNAL, "copy check failed: %s has %d rows in %s and %d in the copy; nothing was written", t.name, rep.Tables[t.name], src.path, got[t.name])
				}
			}
			if sum != want {
				return engine.Errorf(engine.EINTERNAL, "copy check failed: the content checksum of the copy (%s) differs from %s's (%s); nothing was written", sum[:12], src.path, want[:12])
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	rep.SHA256 = want
	return rep, nil
}

// checkEmpty refuses a database that holds any row of a memory space (a
// new one has only its seq counter at 0).
func checkEmpty(ctx context.Context, tx *Tx, path string) error {
	for _, t := range copyTables {
		var n int
		q := `SELECT COUNT(*) FROM ` + t.name
		if t.name == "counters" {
			q += ` WHERE NOT (name = 'seq' AND value = 0)`
		}
		if err := tx.tx.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return engine.Errorf(engine.ECONFLICT, "%s is not empty (%s has %d rows); copy writes only into a new database or space — give another --to", path, t.name, n)
		}
	}
	return nil
}

// columns lists a table's columns as a query of it returns them, without
// PostgreSQL's rowid (an insertion order SQLite keeps implicitly).
func columns(ctx context.Context, tx *Tx, table string) ([]string, error) {
	rows, err := tx.tx.QueryContext(ctx, `SELECT * FROM `+table+` LIMIT 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(cols, func(c string) bool { return c == "rowid" }), nil
}

func copyTable(ctx context.Context, stx, dtx *Tx, table, order string) error {
	cols, err := columns(ctx, stx, table)
	if err != nil {
		return err
	}
	dcols, err := columns(ctx, dtx, table)
	if err != nil {
		return err
	}
	for _, c := range cols {
		if !slices.Contains(dcols, c) {
			return engine.Errorf(engine.EINVALID, "the target's %s table has no column %s; upgrade the memtrace that made it", table, c)
		}
	}
	rows, err := stx.tx.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+table+` ORDER BY `+order)
	if err != nil {
		return err
	}
	defer rows.Close()
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")
	ins, err := dtx.stmt(ctx, `INSERT INTO `+table+` (`+strings.Join(cols, ", ")+`) VALUES (`+marks+`)`)
	if err != nil {
		return err
	}
	super, idCol := slices.Index(cols, "superseded_by"), slices.Index(cols, "id")
	type link struct{ id, to any }
	var links []link
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if table == "memories" && super >= 0 && vals[super] != nil {
			links = append(links, link{vals[idCol], vals[super]})
			vals[super] = nil
		}
		if _, err := ins.ExecContext(ctx, vals...); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, l := range links {
		if _, err := dtx.tx.ExecContext(ctx, `UPDATE memories SET superseded_by = ? WHERE id = ?`, l.to, l.id); err != nil {
			return err
		}
	}
	return nil
}

// resetIdentities moves each identity column's sequence past the ids
// copied in, so the next insert takes the next id as on SQLite.
func resetIdentities(ctx context.Context, tx *Tx) error {
	for _, t := range []string{"memories", "captures", "corrections", "lesson_sightings", "proposals", "audit", "review_queue", "traces"} {
		if _, err := tx.tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM `+t); err != nil {
			return fmt.Errorf("reset %s ids: %w", t, err)
		}
	}
	return nil
}

// spaceChecksum is the SHA-256 of every row of every copied table, in
// table order and each table's order, columns by name, each value written
// the same way whichever backend read it; counts gets the rows per table.
func spaceChecksum(ctx context.Context, tx *Tx, counts map[string]int) (string, error) {
	h := sha256.New()
	for _, t := range copyTables {
		cols, err := columns(ctx, tx, t.name)
		if err != nil {
			return "", err
		}
		slices.Sort(cols)
		rows, err := tx.tx.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+t.name+` ORDER BY `+t.order)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "table %s (%s)\n", t.name, strings.Join(cols, ","))
		// Text keys sort by the database's collation, which differs
		// between servers: those tables are hashed in byte order.
		sortRows := t.name == "settings" || t.name == "counters" || t.name == "batches"
		n, err := hashRows(rows, len(cols), h, sortRows)
		rows.Close()
		if err != nil {
			return "", fmt.Errorf("checksum %s: %w", t.name, err)
		}
		counts[t.name] = n
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashRows(rows *sql.Rows, n int, h interface{ Write([]byte) (int, error) }, sortRows bool) (int, error) {
	var held [][]byte
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	count := 0
	var b []byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, err
		}
		b = b[:0]
		for _, v := range vals {
			switch x := v.(type) {
			case nil:
				b = append(b, 'N')
			case int64:
				b = append(b, 'i')
				b = strconv.AppendInt(b, x, 10)
			case float64:
				b = append(b, 'f')
				b = strconv.AppendFloat(b, x, 'g', -1, 64)
			case string:
				b = append(b, 's')
				b = strconv.AppendInt(b, int64(len(x)), 10)
				b = append(b, ':')
				b = append(b, x...)
			case []byte:
				b = append(b, 'b')
				b = strconv.AppendInt(b, int64(len(x)), 10)
				b = append(b, ':')
				b = append(b, x...)
			default:
				return 0, fmt.Errorf("unexpected stored value %T", v)
			}
			b = append(b, 0x1f)
		}
		b = append(b, '\n')
		if sortRows {
			held = append(held, slices.Clone(b))
		} else {
			h.Write(b)
		}
		count++
	}
	slices.SortFunc(held, func(a, b []byte) int { return strings.Compare(string(a), string(b)) })
	for _, r := range held {
		h.Write(r)
	}
	return count, rows.Err()
}
