// Command manpage writes memtrace(1) from the same command list and help
// topics that `memtrace help` prints. The release runs it before packaging:
//
//	go run ./internal/tools/manpage -version v0.3.0 -date 2026-12-01 -o build/man/memtrace.1
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"memtrace/internal/cli"
)

func main() {
	version := flag.String("version", "dev", "version for the page's title line")
	date := flag.String("date", time.Now().UTC().Format("2006-01-02"), "date for the page's title line (YYYY-MM-DD, or RFC 3339: the day is kept)")
	out := flag.String("o", "", "output file; a name ending in .gz is gzipped (default stdout)")
	flag.Parse()
	if len(*date) > 10 && (*date)[10] == 'T' {
		*date = (*date)[:10]
	}
	var b bytes.Buffer
	if err := cli.WriteManPage(&b, *version, *date); err != nil {
		fail(err)
	}
	if *out == "" {
		os.Stdout.Write(b.Bytes())
		return
	}
	body := b.Bytes()
	if strings.HasSuffix(*out, ".gz") {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(body)
		if err := zw.Close(); err != nil {
			fail(err)
		}
		body = z.Bytes()
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, body, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "manpage:", err)
	os.Exit(1)
}
