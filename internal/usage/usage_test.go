package usage

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWrite: the file holds this process's CPU nanoseconds and peak RSS
// in KiB, both positive (Linux; elsewhere nothing); "" writes nothing.
func TestWrite(t *testing.T) {
	if err := Write(""); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "usage")
	if err := Write(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if runtime.GOOS != "linux" {
		if !os.IsNotExist(err) {
			t.Errorf("Write wrote %q (%v) off Linux", data, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var cpu, peak int64
	if n, err := fmt.Sscanf(string(data), "%d %d\n", &cpu, &peak); n != 2 || err != nil || cpu <= 0 || peak <= 0 {
		t.Errorf("usage file %q: %d fields (%v), cpu %d, peak %d", data, n, err, cpu, peak)
	}
}

// TestCPU: the process's CPU time is positive and grows while it works.
func TestCPU(t *testing.T) {
	before, err := CPU()
	if err != nil || before <= 0 {
		t.Fatalf("CPU = %s, %v", before, err)
	}
	sum := 0
	for range 1000 {
		for i := range 1 << 20 {
			sum += i
		}
		after, err := CPU()
		if err != nil {
			t.Fatal(err)
		}
		if after > before {
			t.Logf("%s after %s (%d)", after, before, sum)
			return
		}
	}
	t.Errorf("CPU stayed %s over 10^9 additions", before)
}
