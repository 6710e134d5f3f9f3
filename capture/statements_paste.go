package capture

import (
	"regexp"
	"strings"
)

// Machine output (issue 29): lines a program wrote, not a person — a log
// line, a stack trace's header, a shell prompt with its command, a column
// of a tabular listing. codeLine reads them as pasted material beside
// code and configuration, so a pasted log, trace or terminal session is
// never a statement of the user's (it has no sentence to keep).

// machineLead opens a line a program wrote: a timestamp (ISO 8601, a
// clock time, a syslog date), a log level, a diagnostic word with its
// colon (panic:, fatal:, error:, Caused by:), a goroutine or thread
// header, a process status, or a shell prompt ($, ❯, user@host:~$, PS C:\>).
var machineLead = regexp.MustCompile(`^(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|\[?\d{1,2}:\d{2}:\d{2}\b|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{2}:\d{2}|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)\b[\]:]?\s|[A-Z]/\S+\(\d+\):|(?i:panic|fatal error|fatal|error|warning|caused by|npm err!):|(?i:exception in thread|segmentation fault|exit status \d|exit code \d|goroutine \d+ \[)|\$ \S|❯ \S|PS [A-Z]:\\[^>]*> ?|[\w.-]+@[\w.-]+:\S*[$#] )`)

// machineToken is a token a person does not type in prose: key=value, a
// hex number or long hex id, an address with a port, a path of two or
// more segments, a dotted identifier with a call or a line number.
var machineToken = regexp.MustCompile(`^(?:[\w.-]+=\S+|0x[0-9a-fA-F]+|[0-9a-f]{8,}|\d+\.\d+\.\d+\.\d+(?::\d+)?|\S*/\S+/\S+|[\w.]+\.\w+:\d+|\S+\(\S*\)\S*)$`)

// machineLine reports a line of machine output (see above): a machine
// lead, or two or more machine tokens making a quarter of its tokens or
// more, or — inside a block — a row of three or more columns aligned by
// runs of spaces.
func machineLine(line string, block bool) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if machineLead.MatchString(t) {
		return true
	}
	fields := strings.Fields(t)
	n := 0
	for _, f := range fields {
		if machineToken.MatchString(strings.Trim(f, ",;[]\"'")) {
			n++
		}
	}
	if n >= 2 && n*4 >= len(fields) {
		return true
	}
	return block && len(columnGap.FindAllStringIndex(t, 3)) >= 2
}

// columnGap separates the columns of a tabular listing (t is trimmed).
var columnGap = regexp.MustCompile(` {2,}|\t+`)
