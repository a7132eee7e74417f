//go:build !linux

package cache

import (
	"io"
	"os"
	"time"
)

// readFile returns the bytes and modification time of the file p.
func readFile(p string) ([]byte, time.Time, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	buf := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, time.Time{}, errCorrupt
	}
	return buf, fi.ModTime(), nil
}

// mapFile is readFile where files are not mapped (mapped false).
func mapFile(p string) (buf []byte, mtime time.Time, mapped bool, err error) {
	buf, mtime, err = readFile(p)
	return buf, mtime, false, err
}

// unmap does nothing: mapFile read the bytes.
func unmap([]byte) {}

// mapsFiles says mapFile maps files here.
const mapsFiles = false
