//go:build !(linux || darwin || freebsd)

package vecfile

import (
	"io"
	"os"
	"unsafe"
)

// mapFile reads the file where there is no mmap, into memory aligned for
// float32.
func mapFile(fd *os.File, size int) ([]byte, error) {
	words := make([]uint64, (size+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), size)
	if _, err := io.ReadFull(io.NewSectionReader(fd, 0, int64(size)), b); err != nil {
		return nil, err
	}
	return b, nil
}

// releaseWhenUnreachable has nothing to do where the file is read into the
// heap: the collector frees it when no vector points into it.
func releaseWhenUnreachable(*File, []byte) {}
