//go:build linux || darwin || freebsd

package sidefile

import (
	"os"
	"syscall"
)

// Lock takes the exclusive lock of the file at path (PATH.lock, never
// followed if a symbolic link), which a writer holds to rename and an
// eraser to remove; the returned function releases it.
func Lock(path string) (func(), error) {
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
