package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestProfileSampling: a run without DRYDOCK_MEMPROFILE samples no
// allocations; with it the runtime's rate stays, and the heap profile is
// written.
func TestProfileSampling(t *testing.T) {
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	const rate = 512 * 1024

	runtime.MemProfileRate = rate
	profile("", "")()
	if runtime.MemProfileRate != 0 {
		t.Errorf("without a heap profile: MemProfileRate %d, want 0", runtime.MemProfileRate)
	}

	runtime.MemProfileRate = rate
	mem := filepath.Join(t.TempDir(), "mem.prof")
	profile("", mem)()
	if runtime.MemProfileRate != rate {
		t.Errorf("with a heap profile: MemProfileRate %d, want %d", runtime.MemProfileRate, rate)
	}
	if fi, err := os.Stat(mem); err != nil || fi.Size() == 0 {
		t.Errorf("heap profile not written: %v", err)
	}
}
