package importer

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// RepoProject names the project of a working directory by the repository
// it is in: the base name of the nearest directory at or above cwd that
// holds a .git entry (a directory, or the file a worktree has), found on
// this machine's file system. It never follows a symbolic link: the walk
// stops below the first component of cwd that is a link, and a .git that
// is a link does not count. ok is false when cwd (a transcript may come
// from another machine) has no repository here.
func RepoProject(cwd string) (name string, ok bool) {
	cwd = filepath.Clean(filepath.FromSlash(strings.ReplaceAll(cwd, `\`, "/")))
	if !filepath.IsAbs(cwd) {
		return "", false
	}
	// The deepest prefix of cwd reachable without following a link.
	vol := filepath.VolumeName(cwd)
	parts := strings.Split(strings.TrimPrefix(cwd[len(vol):], string(filepath.Separator)), string(filepath.Separator))
	dir := vol + string(filepath.Separator)
	var reachable []string
	for _, p := range parts {
		if p == "" {
			continue
		}
		next := filepath.Join(dir, p)
		fi, err := os.Lstat(next)
		if err != nil || !fi.IsDir() { // a link is not a directory to Lstat
			break
		}
		dir = next
		reachable = append(reachable, dir)
	}
	for i := len(reachable) - 1; i >= 0; i-- {
		fi, err := os.Lstat(filepath.Join(reachable[i], ".git"))
		if err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
			return filepath.Base(reachable[i]), true
		}
	}
	return "", false
}

// projectName is the last element of a working directory, POSIX or Windows.
func projectName(cwd string) string {
	cwd = strings.TrimRight(strings.ReplaceAll(cwd, `\`, "/"), "/")
	if cwd == "" {
		return ""
	}
	return path.Base(cwd)
}
