// Command drydock renders what a multi-cluster Kubernetes platform would
// deploy, without a cluster. See `drydock help`.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
)

func main() {
	// CUE evaluation allocates heavily; trading memory for fewer collections
	// measurably raises render throughput. GOGC in the environment wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	stop := profile(os.Getenv("DRYDOCK_CPUPROFILE"), os.Getenv("DRYDOCK_MEMPROFILE"))
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// profile starts a CPU profile into cpuFile and arranges a heap profile
// into memFile (either may be ""): the developer's view of a real run
// (`make profile`). The returned func ends them.
func profile(cpuFile, memFile string) (stop func()) {
	var cpu *os.File
	if cpuFile != "" {
		f, err := os.Create(cpuFile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "drydock: DRYDOCK_CPUPROFILE: %v\n", err)
		}
		cpu = f
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if memFile == "" {
			return
		}
		f, err := os.Create(memFile)
		if err == nil {
			runtime.GC()
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "drydock: DRYDOCK_MEMPROFILE: %v\n", err)
		}
	}
}
