package main

import (
	"embed"
	_ "embed"
	"io/fs"

	"memtrace/internal/cli"
)

// demoConversation is testdata/demo.jsonl, built into the binary so that
// `memtrace demo` works from any directory.
//
//go:embed testdata/demo.jsonl
var demoConversation []byte

// demoFiles is the demo conversation with the project's golden set over it
// (set, quarantine, reviewed baseline), so that an installed binary's
// Golden tab opens the demo's set outside the repository too.
//
//go:embed testdata/demo.jsonl testdata/golden/demo.yaml testdata/golden/demo.quarantine testdata/golden/demo.baseline.json
var demoFiles embed.FS

func init() {
	cli.DemoConversation = demoConversation
	sets, err := fs.Sub(demoFiles, "testdata")
	if err != nil {
		panic(err) // the embed above names testdata: cannot fail
	}
	cli.DemoSets = sets
}
