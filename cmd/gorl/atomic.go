package main

import (
	"io"
	"os"
	"path/filepath"
)

// writeAtomic replaces the file at path with what write writes, through a
// temporary file beside it and a rename, so that a reader (or a run
// interrupted midway) never sees a partial file. The file is readable by
// all (0644).
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
