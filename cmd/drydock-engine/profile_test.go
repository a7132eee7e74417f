package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/drydock-dev/drydock/internal/heapsample"
)

// initRate is the heap-profile sampling rate as package main's
// variables initialise, after every imported package's initialisers.
var initRate = runtime.MemProfileRate

// The test binary samples at the runtime's rate again: go test
// -memprofile expects it, and the tests do not call process, which
// would.
func init() { runtime.MemProfileRate = heapsample.Rate }

// TestHeapSampleOffAtStart: the engine's libraries initialise without
// heap-profile sampling (package heapsample), and the rate it kept is
// the runtime's default.
func TestHeapSampleOffAtStart(t *testing.T) {
	if initRate != 0 {
		t.Errorf("MemProfileRate after the initialisers %d, want 0", initRate)
	}
	if heapsample.Rate != 512*1024 {
		t.Errorf("heapsample.Rate %d, want the runtime's default %d", heapsample.Rate, 512*1024)
	}
}

// TestProfileSampling: a run without DRYDOCK_MEMPROFILE samples no
// allocations; with it the runtime's rate returns (sampling was off
// since the start), and the heap profile is written.
func TestProfileSampling(t *testing.T) {
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	const rate = 512 * 1024

	runtime.MemProfileRate = rate
	profile("", "")()
	if runtime.MemProfileRate != 0 {
		t.Errorf("without a heap profile: MemProfileRate %d, want 0", runtime.MemProfileRate)
	}

	runtime.MemProfileRate = 0
	mem := filepath.Join(t.TempDir(), "mem.prof")
	profile("", mem)()
	if runtime.MemProfileRate != rate {
		t.Errorf("with a heap profile: MemProfileRate %d, want %d", runtime.MemProfileRate, rate)
	}
	if fi, err := os.Stat(mem); err != nil || fi.Size() == 0 {
		t.Errorf("heap profile not written: %v", err)
	}
}
