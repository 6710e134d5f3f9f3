//go:build linux || darwin || freebsd

package lexfile

import (
	"os"
	"syscall"
)

// lock takes the exclusive lock of path's cache file (PATH.lock, never
// followed if a symbolic link), which a writer holds to rename and an
// eraser to remove.
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
