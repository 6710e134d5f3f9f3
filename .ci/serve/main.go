// Command serve is a static file server on a loopback port for .ci/release.sh:
// it serves -dir, writes its base URL to -url-file once it listens, and stops
// by itself after -for, so a CI run that dies leaves no server behind.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	dir := flag.String("dir", ".", "directory to serve")
	urlFile := flag.String("url-file", "", "write http://127.0.0.1:PORT here once listening")
	life := flag.Duration("for", 10*time.Minute, "stop after this long")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	url := fmt.Sprintf("http://%s", ln.Addr())
	if *urlFile != "" {
		tmp := *urlFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(url+"\n"), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Rename(tmp, *urlFile); err != nil {
			log.Fatal(err)
		}
	}
	time.AfterFunc(*life, func() {
		log.Printf("serve: %s elapsed, stopping", *life)
		os.Exit(0)
	})
	log.Fatal(http.Serve(ln, http.FileServer(http.Dir(*dir))))
}
