package main

import (
	_ "embed"

	"memtrace/internal/cli"
)

// demoConversation is testdata/demo.jsonl, built into the binary so that
// `memtrace demo` works from any directory.
//
//go:embed testdata/demo.jsonl
var demoConversation []byte

func init() { cli.DemoConversation = demoConversation }
