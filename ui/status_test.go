package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// timers are the expiries the UI asked for in a test: a status expires
// only when the test delivers its message (the program's tea.Tick would
// make every test that sets a status wait statusTTL).
type timerCall struct {
	d   time.Duration
	msg tea.Msg
}

var realStatusTimer = statusTimer

func TestMain(m *testing.M) {
	statusTimer = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	os.Exit(m.Run())
}

// recordTimers makes statusTimer note its calls for the test.
func recordTimers(t *testing.T) *[]timerCall {
	t.Helper()
	var calls []timerCall
	statusTimer = func(d time.Duration, msg tea.Msg) tea.Cmd {
		calls = append(calls, timerCall{d, msg})
		return nil
	}
	t.Cleanup(func() { statusTimer = func(time.Duration, tea.Msg) tea.Cmd { return nil } })
	return &calls
}

// lastExpiry is the newest expiry asked for.
func lastExpiry(t *testing.T, calls []timerCall) statusExpiredMsg {
	t.Helper()
	if len(calls) == 0 {
		t.Fatal("no expiry was asked for")
	}
	c := calls[len(calls)-1]
	if c.d != statusTTL {
		t.Errorf("an expiry after %v, want %v", c.d, statusTTL)
	}
	msg, ok := c.msg.(statusExpiredMsg)
	if !ok {
		t.Fatalf("the timer delivers %T", c.msg)
	}
	return msg
}

// The program's timer is a tick that delivers the expiry.
func TestStatusTimerTicks(t *testing.T) {
	want := statusExpiredMsg{pane: 2, seq: 7}
	if got := realStatusTimer(time.Millisecond, want)(); got != want {
		t.Errorf("the timer delivered %#v, want %#v", got, want)
	}
}

// A Curate status ("cancelled") leaves its line once its expiry comes; an
// expiry that a newer status replaced clears nothing; the error line stays.
func TestStatusExpires(t *testing.T) {
	calls := recordTimers(t)
	m, _, _, _ := curateListsFixture(t, 100, 30)
	m = toQueue(t, m, "archive")
	m = drive(t, m, press("x"))
	m = drive(t, m, press("esc"))
	if st := m.curate().status; !strings.Contains(st, "cancelled") {
		t.Fatalf("esc in the reject dialog says %q, want cancelled", st)
	}
	first := lastExpiry(t, *calls)
	// A newer status: the first expiry must not clear it.
	m = drive(t, m, press("x"), press("esc"))
	m = drive(t, m, press("V"), press("esc"))
	second := m.curate().status
	if second == "" || second == "cancelled: nothing was rejected" {
		t.Fatalf("no newer status after V esc: %q", second)
	}
	m = drive(t, m, first)
	if m.curate().status != second {
		t.Errorf("a stale expiry cleared the newer status %q (now %q)", second, m.curate().status)
	}
	m = drive(t, m, lastExpiry(t, *calls))
	if m.curate().status != "" || strings.Contains(screen(m), second) {
		t.Errorf("the status %q did not expire:\n%s", second, screen(m))
	}
}

// A notice (a copy's result) belongs to the tab it was given on: another
// tab's footer does not show it, and it expires.
func TestNoticeBelongsToItsTab(t *testing.T) {
	calls := recordTimers(t)
	m, _ := demoModel(t, 120, 40)
	m = goTo(t, m, "Memories")
	m = drive(t, m, noticeMsg{Text: "copied the memory (12 chars)"})
	if !strings.Contains(screen(m), "copied the memory") {
		t.Fatalf("the notice is not shown on its tab:\n%s", screen(m))
	}
	exp := lastExpiry(t, *calls)
	// Another tab, by a click on the tab bar (no key clears it).
	other := m
	other.active = m.paneIndex(paneTrace)
	if strings.Contains(screen(other), "copied the memory") {
		t.Errorf("the Memories notice follows to the Trace tab:\n%s", screen(other))
	}
	m = drive(t, m, exp)
	if strings.Contains(screen(m), "copied the memory") {
		t.Errorf("the notice did not expire:\n%s", screen(m))
	}
	// An error notice stays until the next key.
	n := len(*calls)
	m = drive(t, m, noticeMsg{Text: "memory 9: not found", Err: true})
	if len(*calls) != n {
		t.Errorf("an error notice was given an expiry")
	}
}
