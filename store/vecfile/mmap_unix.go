//go:build linux || darwin || freebsd

package vecfile

import (
	"os"
	"syscall"
)

// mapFile maps the whole file privately: its pages are read from the page
// cache as they are touched, shared with every other process that maps it,
// and a page written to is copied for this process alone. The mapping is
// never unmapped: the vector index and the memories point into it for the
// life of the process.
func mapFile(fd *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(fd.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
}

// lock takes the exclusive lock of path's vector file (PATH.lock), which a
// writer holds to rename and an eraser to remove.
func lock(path string) (func(), error) {
	fd, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
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
