package store_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// envKillChild names the database a child process of TestKilledMidBatch
// writes to.
const envKillChild = "MEMTRACE_TEST_KILL_CHILD"

// The child: one bulk change (as apply, approve or an ingest batch is)
// that writes 200 memories with their audit rows, says so, and then
// waits inside the open transaction to be killed.
func TestMain(m *testing.M) {
	if path := os.Getenv(envKillChild); path != "" {
		os.Exit(killChild(path))
	}
	os.Exit(m.Run())
}

func killChild(path string) int {
	ctx := context.Background()
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	err = db.Update(ctx, func(q engine.Queries) error {
		for i := range 200 {
			if err := q.InsertMemory(ctx, newMemory(fmt.Sprintf("half-%d", i), "written before the kill"), engine.Actor{Name: "bulk", Batch: "bulk:1"}); err != nil {
				return err
			}
		}
		fmt.Println("written")
		time.Sleep(time.Minute)
		return nil
	})
	fmt.Fprintln(os.Stderr, "not killed:", err)
	return 1
}

// A process SIGKILLed in the middle of a bulk change leaves nothing of it:
// no memory, no audit row, no batch, the seq counter where it was, and
// the next writer is not blocked by what the dead one held.
func TestKilledMidBatch(t *testing.T) {
	storetest.ForEachBackend(t, func(t *testing.T, b storetest.Backend) {
		ctx := context.Background()
		path := b.Fresh(t)
		db := storetest.MustOpenPath(t, path, nil)
		must(t, db.InsertMemory(ctx, newMemory("before", "committed before the child ran"), engine.Actor{Name: "t", Batch: "b0"}))
		_, seqBefore, err := db.MemoriesChangedSince(ctx, 0)
		must(t, err)

		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envKillChild+"="+path)
		out, err := cmd.StdoutPipe()
		must(t, err)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		must(t, cmd.Start())
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || line != "written\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child did not write: %q %v; stderr: %s", line, err, stderr.String())
		}
		must(t, cmd.Process.Signal(syscall.SIGKILL))
		cmd.Wait()

		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		// The next writer gets the lock the dead process held.
		must(t, db.InsertMemory(wctx, newMemory("after", "committed after the kill"), engine.Actor{Name: "t", Batch: "b2"}))
		ms, n, err := db.FindMemories(ctx, engine.MemoryFilter{})
		must(t, err)
		if n != 2 || ms[0].Key != "before" || ms[1].Key != "after" {
			t.Fatalf("after the kill: %d memories; want only the two committed around it", n)
		}
		if rows, err := db.AuditForBatch(ctx, "bulk:1"); err != nil || len(rows) != 0 {
			t.Fatalf("the killed batch left %d audit rows (%v)", len(rows), err)
		}
		if ms[1].Seq != seqBefore+1 {
			t.Fatalf("seq after the kill = %d, want %d (the dead batch's seq values were never committed)", ms[1].Seq, seqBefore+1)
		}
	})
}
