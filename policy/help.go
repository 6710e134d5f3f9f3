package policy

import (
	"fmt"
	"strconv"
	"strings"

	"memtrace/engine"
)

// Help is `memtrace help policy`: the schema with every key's default,
// unit, range, when it acts and the closed form it enters.
func Help() string {
	var b strings.Builder
	b.WriteString(`A policy file holds the tunables of capture, forgetting and recall, in YAML:
sections and keys below, each optional (left out: the default). Decoding is
strict: an unknown section or key is an error naming its line and the valid
keys; a value out of its range is refused. Durations are Go durations (336h)
or days (14d, 1.5d).

  memtrace policy show [--json]   the policy this database runs with
  memtrace policy set FILE        record FILE as its policy (audited batch;
                                  memtrace rollback BATCH restores the previous)
  memtrace policy diff A B        compare two policies (files, or db)

Every engine open on a database uses the policy it records (none recorded:
the defaults below). capture-time keys affect NEW captures only: what is
stored stays as it was decided. recall-time keys act on every recall, over
every memory already stored.

`)
	d := engine.DefaultConfig()
	eachField(&b, func(name string, f *field) {
		fmt.Fprintf(&b, "  %-20s %-8s %-8s %-22s %s\n", name+":", f.format(f.get(&d)), f.Phase, f.rangeText(), f.Doc)
	})
	b.WriteString("\nd(t) = 2^(−Δt/H) is free recall's decay (memtrace help decay); the rerank,\ngate and expansion keys are explained in memtrace help relevance.\n")
	return b.String()
}

func (f *field) rangeText() string {
	if f.Kind == kEnum {
		return strings.Join(f.Enum, "|")
	}
	lo, hi := strconv.FormatFloat(f.Min, 'f', -1, 64), strconv.FormatFloat(f.Max, 'f', -1, 64)
	if f.Kind == kDuration {
		lo = f.format(timeHours(f.Min))
		hi = f.format(timeHours(f.Max))
	}
	return "[" + lo + ", " + hi + "]"
}
