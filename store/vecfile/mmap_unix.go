//go:build linux || darwin || freebsd

package vecfile

import (
	"os"
	"runtime"
	"syscall"
)

// mapFile maps the whole file privately: its pages are read from the page
// cache as they are touched, shared with every other process that maps it,
// and a page written to is copied for this process alone.
func mapFile(fd *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(fd.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
}

// releaseWhenUnreachable gives data's pages back once f is unreachable
// (MADV_DONTNEED: the copied pages are dropped, the file's leave the
// resident set). It never unmaps: memories copied out of a closed engine
// may still hold a vector slice into the mapping, which then reads the
// file's bytes again instead of faulting.
func releaseWhenUnreachable(f *File, data []byte) {
	runtime.AddCleanup(f, func(b []byte) { syscall.Madvise(b, syscall.MADV_DONTNEED) }, data)
}
