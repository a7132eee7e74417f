//go:build !linux

package main

// writeUsage is Linux's only (DRYDOCK_USAGE): elsewhere it writes nothing.
func writeUsage(string) {}
