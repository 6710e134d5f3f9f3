//go:build !(linux || darwin || freebsd)

package lexfile

import (
	"io"
	"os"
	"unsafe"
)

// mapFile reads the file where there is no mmap, into memory aligned for
// the token section's integers.
func mapFile(fd *os.File, size int) ([]byte, func(), error) {
	words := make([]uint32, (size+3)/4)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), size)
	if _, err := io.ReadFull(io.NewSectionReader(fd, 0, int64(size)), b); err != nil {
		return nil, nil, err
	}
	return b, func() {}, nil
}
