// Package outfile is how memtrace writes the files it makes from a
// database — backups, dumps, Markdown exports, --otel files, golden run
// records, verdict and judge caches: never through a symbolic link (a path
// or a directory a user's tree or a memory hands over must not redirect a
// write), and with the database file's own permissions, so a 0600 database
// never leaves a 0644 copy of its contents beside it.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Private is the mode of outputs of a database that has no file of its
// own to take a mode from (PostgreSQL, a database not created yet).
const Private os.FileMode = 0o600

// Perm is the mode outputs of the database at dbPath take: the file's own
// read and write bits, Private when there is no such file.
func Perm(dbPath string) os.FileMode {
	fi, err := os.Stat(dbPath)
	if dbPath == "" || err != nil || !fi.Mode().IsRegular() {
		return Private
	}
	return fi.Mode().Perm() & 0o666
}

// DirPerm is the mode of a directory made for files of mode perm: each
// class that may read the files may also enter the directory.
func DirPerm(perm os.FileMode) os.FileMode {
	d := perm | 0o700
	if perm&0o040 != 0 {
		d |= 0o010
	}
	if perm&0o004 != 0 {
		d |= 0o001
	}
	return d
}

// LinkError is a write refused because its path is a symbolic link.
type LinkError struct{ Path string }

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link; memtrace does not write through links — name the real path, or remove the link", e.Path)
}

// RefuseLink reports a *LinkError when path exists and is a symbolic link.
func RefuseLink(path string) error {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return &LinkError{Path: path}
	}
	return nil
}

// MkdirAll makes dir and its missing parents with DirPerm(perm), and
// refuses a dir that is a symbolic link (its parents are the user's own
// choice of place; the directory memtrace writes into is not followed).
func MkdirAll(dir string, perm os.FileMode) error {
	if err := RefuseLink(dir); err != nil {
		return err
	}
	return os.MkdirAll(dir, DirPerm(perm))
}

// Create opens path for writing, truncated, with mode perm; a path that is
// a symbolic link is refused (O_NOFOLLOW: no window between a check and
// the open).
func Create(path string, perm os.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
}

// Append opens path for appending, created with mode perm when missing; a
// symbolic link is refused.
func Append(path string, perm os.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, perm)
}

// CreateExclusive is Create for a file that must not exist yet.
func CreateExclusive(path string, perm os.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}

func open(path string, flag int, perm os.FileMode) (*os.File, error) {
	if err := RefuseLink(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW, perm)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &LinkError{Path: path}
	}
	if err != nil {
		return nil, err
	}
	// The mode asked for, whatever the umask took away or an older file
	// had: outputs have the database's permissions exactly.
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WriteFile writes data to path (mode perm), refusing a symbolic link.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// CreateTemp makes a temporary file beside path (for a write through a
// rename), with mode perm; the directory must not be a symbolic link.
func CreateTemp(path string, perm os.FileMode) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := RefuseLink(dir); err != nil {
		return nil, err
	}
	if err := RefuseLink(path); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}
