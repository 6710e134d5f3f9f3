package cli

import (
	"fmt"
	"io"
	"strings"

	"memtrace/internal/safetext"
)

// textTable is a CLI table whose columns line up by display width — a
// Korean character takes two terminal cells, which text/tabwriter and %-Ns
// count as one (or three, in bytes). Every cell is sanitised to one line,
// since memory text is untrusted: control sequences are shown, not run.
type textTable struct {
	header []string
	rows   [][]string
	// limit caps a column's width in cells (0: no cap); longer cells are
	// cut with "…".
	limit []int
	// right aligns a column to the right (numbers).
	right []bool
}

// newTextTable starts a table with its column titles.
func newTextTable(header ...string) *textTable {
	return &textTable{header: header, limit: make([]int, len(header)), right: make([]bool, len(header))}
}

// cap sets the widest a column may be, in cells.
func (t *textTable) cap(col, cells int) *textTable {
	t.limit[col] = cells
	return t
}

// alignRight right-aligns columns.
func (t *textTable) alignRight(cols ...int) *textTable {
	for _, c := range cols {
		t.right[c] = true
	}
	return t
}

// add appends a row; cells are formatted with %v.
func (t *textTable) add(cells ...any) {
	row := make([]string, len(t.header))
	for i := range row {
		if i < len(cells) {
			row[i] = fmt.Sprint(cells[i])
		}
	}
	t.rows = append(t.rows, row)
}

// write prints the table: columns two cells apart, the last one neither
// padded nor followed by spaces.
func (t *textTable) write(w io.Writer) error {
	all := append([][]string{t.header}, t.rows...)
	for _, r := range all {
		for i, c := range r {
			c = safetext.SanitizeLine(c)
			if t.limit[i] > 0 {
				c = safetext.Truncate(c, t.limit[i])
			}
			r[i] = c
		}
	}
	widths := make([]int, len(t.header))
	for _, r := range all {
		for i, c := range r {
			widths[i] = max(widths[i], safetext.Width(c))
		}
	}
	var b strings.Builder
	for _, r := range all {
		for i, c := range r {
			last := i == len(r)-1
			switch {
			case t.right[i]:
				b.WriteString(safetext.PadLeft(c, widths[i]))
			case last:
				b.WriteString(c)
			default:
				b.WriteString(safetext.PadRight(c, widths[i]))
			}
			if !last {
				b.WriteString("  ")
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, trimLines(b.String()))
	return err
}

// trimLines drops trailing spaces from every line.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
