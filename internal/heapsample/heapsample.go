// Package heapsample turns the runtime's heap-profile sampling off
// before the engine's libraries initialise, and keeps the rate it had
// (Rate) for the runs that write a heap profile (DRYDOCK_MEMPROFILE).
//
// The engine's package initialisers allocate about 8.5 MB. At the
// runtime's default rate (one sample per 512 KiB) that is some twenty
// sampled stacks, each unwound and hashed into the profile's buckets
// before main could turn sampling off: about 80 of the start's 3,300
// page faults (`drydock-engine version`, perf stat). A heap profile
// therefore no longer holds the initialisers' allocations;
// GODEBUG=inittrace=1 reports them.
//
// Go initialises a package once its imports are and, among those ready,
// the first by import path: this one imports only runtime, which is
// initialised before all others, so it runs among the first ten.
package heapsample

import "runtime"

// Rate is the runtime's sampling rate before this package turned it
// off.
var Rate = runtime.MemProfileRate

func init() { runtime.MemProfileRate = 0 }
