package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// builtinSet is the default set's path inside Deps.Sets.
const builtinSet = "golden/demo.yaml"

// extractSets copies the sets built into the binary (Deps.Sets) to a
// directory of the user's cache named for their content, and returns the
// path of the default set there. The set, its fixture, quarantine and
// baseline are ordinary files again, so every file-based path (a run,
// `S` saving a baseline beside the set) works as on the repository's
// copy. A file already there is kept (a baseline the user saved
// survives); one that is not a regular file — a symlink planted in the
// cache — is refused, never followed.
func extractSets(sets fs.FS) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("built-in golden set: no cache directory (%v); set XDG_CACHE_HOME or press o and type a set's path", err)
	}
	files, sum, err := setFiles(sets)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "memtrace", "sets-"+sum)
	for _, name := range files {
		if err := extractFile(sets, name, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, filepath.FromSlash(builtinSet)), nil
}

// setFiles lists the regular files of sets in order with a short digest
// of their names and contents, which names the cache directory.
func setFiles(sets fs.FS) ([]string, string, error) {
	var files []string
	err := fs.WalkDir(sets, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, name)
		}
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("built-in golden set: %w", err)
	}
	sort.Strings(files)
	h := sha256.New()
	for _, name := range files {
		b, err := fs.ReadFile(sets, name)
		if err != nil {
			return nil, "", fmt.Errorf("built-in golden set: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return files, hex.EncodeToString(h.Sum(nil))[:12], nil
}

// extractFile writes sets' file name to path unless a regular file is
// there already; it writes a temporary file beside it and renames it, so a
// second memtrace starting at the same time never reads half a file.
func extractFile(sets fs.FS, name, path string) error {
	if st, err := os.Lstat(path); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("built-in golden set: %s is not a regular file; remove it and start again", path)
		}
		return nil
	}
	b, err := fs.ReadFile(sets, name)
	if err != nil {
		return fmt.Errorf("built-in golden set: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("built-in golden set: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".extract-*")
	if err != nil {
		return fmt.Errorf("built-in golden set: %w", err)
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("built-in golden set: %w", werr)
	}
	return nil
}
