//go:build unix

package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFile: a regular file is read; FIFOs, devices, directories, files
// over MaxInputBytes and missing files are refused with the reason.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.yaml", "a: 1\n")
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := write("big.yaml", "")
	if err := os.Truncate(big, MaxInputBytes+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"regular file", ok, ""},
		{"FIFO", fifo, "not a regular file (a FIFO): devices, FIFOs and sockets cannot be inputs"},
		{"character device", "/dev/null", "not a regular file (a device)"},
		{"directory", dir, "not a regular file (a directory)"},
		{"larger than the limit", big, "larger than 67108864 bytes (MaxInputBytes)"},
		{"missing", filepath.Join(dir, "nope.yaml"), "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := ReadFile(tt.path)
			if tt.want == "" {
				if err != nil || string(data) != "a: 1\n" {
					t.Fatalf("ReadFile = %q, %v", data, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ReadFile error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestWalkFilesRefusesFIFO: a FIFO among the inputs of a walked directory
// is refused, named, and never opened (which would block).
func TestWalkFilesRefusesFIFO(t *testing.T) {
	apps := filepath.Join(t.TempDir(), "apps")
	if err := os.MkdirAll(apps, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(apps, "a.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(apps, "f.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	keep := func(name string) bool { return strings.HasSuffix(name, ".yaml") }
	_, err := WalkFiles(apps, WalkOptions{Keep: keep})
	if err == nil || !strings.Contains(err.Error(), "f.yaml: not a regular file (a FIFO)") {
		t.Fatalf("WalkFiles error %v, want the FIFO refused", err)
	}
}
