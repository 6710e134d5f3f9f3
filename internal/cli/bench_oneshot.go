package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"memtrace/engine"
	"memtrace/golden"
	"memtrace/store"
)

// oneShotDB is the database of `bench open --one-shot`, whose commands
// run as new processes of the binary exe.
type oneShotDB struct{ path, exe string }

// OneShot runs `memtrace --db FILE ARGS…` as a new process and measures
// it. mcp is timed until it answers an initialize request on stdin, then
// its stdin is closed and it exits.
func (b oneShotDB) OneShot(ctx context.Context, args []string) (golden.OneShot, error) {
	cmd := exec.CommandContext(ctx, b.exe, append([]string{"--db", b.path}, args...)...)
	var errOut strings.Builder
	cmd.Stderr = &errOut
	mcp := args[0] == "mcp"
	var stdin io.WriteCloser
	var stdout io.ReadCloser
	var err error
	if mcp {
		if stdin, err = cmd.StdinPipe(); err != nil {
			return golden.OneShot{}, err
		}
		if stdout, err = cmd.StdoutPipe(); err != nil {
			return golden.OneShot{}, err
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return golden.OneShot{}, err
	}
	var wall time.Duration
	if mcp {
		wall, err = mcpReady(stdin, stdout, start)
		stdin.Close()
		io.Copy(io.Discard, stdout)
	}
	if werr := cmd.Wait(); err == nil {
		err = werr
	}
	if !mcp {
		wall = time.Since(start)
	}
	if err != nil {
		return golden.OneShot{}, fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, errOut.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return golden.OneShot{}, engine.Errorf(engine.EINVALID, "bench open --one-shot: no resource usage on this system")
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return golden.OneShot{
		Command:  strings.Join(args, " "),
		WallMS:   float64(wall.Microseconds()) / 1000,
		CPUMS:    float64(cpu.Microseconds()) / 1000,
		MaxRSSMB: float64(ru.Maxrss) / 1024, // KiB on Linux
	}, nil
}

// mcpReady sends an MCP initialize request and returns the time from start
// until the answer came.
func mcpReady(stdin io.Writer, stdout io.Reader, start time.Time) (time.Duration, error) {
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "memtrace-bench", "version": "1"}}})
	if _, err := stdin.Write(append(req, '\n')); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("mcp: no answer to initialize: %w", err)
	}
	if !strings.Contains(line, `"id":1`) || !strings.Contains(line, `"result"`) {
		return 0, fmt.Errorf("mcp: initialize answered %.200q", line)
	}
	return time.Since(start), nil
}

// oneShotBinary is the binary `bench open --one-shot` runs: the one
// --binary names, else this one; a test binary is refused (it would run
// the tests, not memtrace).
func oneShotBinary(binary string) (string, error) {
	if binary != "" {
		if _, err := os.Stat(binary); err != nil {
			return "", engine.Errorf(engine.EINVALID, "bench open --binary %s: %v", binary, err)
		}
		return binary, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("bench open --one-shot: %w", err)
	}
	if strings.HasSuffix(exe, ".test") {
		return "", engine.Errorf(engine.EINVALID, "bench open --one-shot: %s is a test binary; run a built memtrace", exe)
	}
	return exe, nil
}

// benchOneShot runs `bench open --one-shot`: the one-shot commands on the
// database at --db, which must exist.
func benchOneShot(e *env, args []string, binary string, asJSON bool) error {
	if len(args) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
	}
	if !e.dbGiven || store.IsDSN(e.dbPath) {
		return usageError{"--one-shot runs on the SQLite file --db names; build one with `memtrace bench open --n 100000 --opens 1 --keep DIR`, then `memtrace bench open --one-shot --db DIR/open-100000.db`"}
	}
	exe, err := oneShotBinary(binary)
	if err != nil {
		return err
	}
	db, _, err := openStore(e, true)
	if err != nil {
		return err
	}
	_, n, err := db.FindMemories(e.ctx, engine.MemoryFilter{Limit: 1})
	db.Close()
	if err != nil {
		return err
	}
	if n == 0 {
		return engine.Errorf(engine.EINVALID, "bench open --one-shot: %s holds no memories; build one with `memtrace bench open --n 100000 --opens 1 --keep DIR`", e.dbPath)
	}
	res, err := golden.RunOneShots(e.ctx, oneShotDB{e.dbPath, exe}, n, peakResidentMB)
	if err != nil {
		return err
	}
	return printBench(e, asJSON, res)
}
