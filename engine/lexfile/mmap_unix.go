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

// lock takes the exclusive lock of path's lexicon file (PATH.lock), which
// a writer holds to rename and an eraser to remove.
func lock(path string) (func(), error) {
	fd, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(fd.Fd()), syscall.LOCK_EX); err != nil {
		fd.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(fd.Fd()), syscall.LOCK_UN)
		fd.Close()
	}, nil
}
