package vecfile

import "syscall"

// madvPageout is MADV_PAGEOUT (Linux 5.4), which package syscall does not
// name: reclaim the pages now. A private mapping's pages this process never
// wrote leave its resident set and stay in the page cache (a touch maps
// them again, a minor fault); pages it wrote (copied on write) stay, so
// nothing written is lost. An older kernel refuses it, and nothing changes.
const madvPageout = 21

func pageOut(b []byte) { _ = syscall.Madvise(b, madvPageout) }
