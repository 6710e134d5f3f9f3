package ui

import (
	"testing"

	"memtrace/engine"
)

// pickName and findCommand say by code, not by wording, whether a word
// names nothing (ENOTFOUND) or several things (EINVALID), and say so in
// words a user can act on.
func TestPickName(t *testing.T) {
	names := []string{"archive", "promote", "review", "retype"}
	t.Run("OK", func(t *testing.T) {
		for arg, want := range map[string]int{"archive": 0, "pro": 1, " Review ": 2, "ret": 3} {
			if i, err := pickName(names, arg); err != nil || i != want {
				t.Errorf("pickName(%q) = %d, %v; want %d", arg, i, err, want)
			}
		}
	})
	for _, c := range []struct {
		name, arg, code, msg string
	}{
		{"ErrNotFound", "zzz", engine.ENOTFOUND, `no "zzz" here: use one of archive, promote, review, retype`},
		{"ErrAmbiguous", "re", engine.EINVALID, `"re" could be review or retype: type more of it`},
	} {
		t.Run(c.name, func(t *testing.T) {
			i, err := pickName(names, c.arg)
			if i != -1 || engine.ErrorCode(err) != c.code || engine.ErrorMessage(err) != c.msg {
				t.Errorf("pickName(%q) = %d, %s %q; want -1, %s %q", c.arg, i, engine.ErrorCode(err), engine.ErrorMessage(err), c.code, c.msg)
			}
		})
	}
	t.Run("UnknownCommand", func(t *testing.T) {
		_, err := findCommand("nope")
		if engine.ErrorCode(err) != engine.ENOTFOUND || engine.ErrorMessage(err) != "unknown command :nope — tab lists the commands, :help shows what each does" {
			t.Errorf("findCommand(nope) = %s %q", engine.ErrorCode(err), err)
		}
	})
	t.Run("AmbiguousCommand", func(t *testing.T) {
		// "c" starts copy and the Curate and Captures tabs: the user is
		// told which, not that no command is called c.
		_, err := findCommand("c")
		if engine.ErrorCode(err) != engine.EINVALID || engine.ErrorMessage(err) != `"c" could be copy or curate or captures: type more of it` {
			t.Errorf("findCommand(c) = %s %q, want an ambiguity", engine.ErrorCode(err), err)
		}
	})
}
