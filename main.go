// Command memtrace is a long-term memory engine for AI agents with a terminal
// UI that shows why an agent recalled what it recalled. main only wires the
// process to the command line in internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"

	"memtrace/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
