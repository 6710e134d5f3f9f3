//go:build !linux

package vecfile

// pageOut has no portable equivalent of Linux's MADV_PAGEOUT: the pages
// stay resident until the system reclaims them.
func pageOut([]byte) {}
