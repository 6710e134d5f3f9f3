//go:build !unix

package golden

import "time"

// processCPU cannot be read here: the CPU figures are reported as 0.
func processCPU() (time.Duration, bool) { return 0, false }
