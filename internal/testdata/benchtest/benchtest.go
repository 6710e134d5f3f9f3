// Package benchtest holds what the benchmarks of several packages measure
// alike.
package benchtest

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time of the whole process (all threads, GC
// included), 0 when the system does not say.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
