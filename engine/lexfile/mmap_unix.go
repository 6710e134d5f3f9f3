//go:build linux || darwin || freebsd

package lexfile

import (
	"os"
	"syscall"
)

// mapFile maps the whole file read-only: its pages come from the page
// cache as they are read, shared with every process that maps it.
func mapFile(fd *os.File, size int) ([]byte, func(), error) {
	b, err := syscall.Mmap(int(fd.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { syscall.Munmap(b) }, nil
}
