package main

import (
	"fmt"
	"os"

	"github.com/drydock-dev/drydock/internal/usage"
)

// writeUsage writes what this process cost to path ("" writes nothing;
// DRYDOCK_USAGE, see usage.Write).
func writeUsage(path string) {
	if err := usage.Write(path); err != nil {
		fmt.Fprintf(os.Stderr, "drydock: DRYDOCK_USAGE: %s\n", errText(err))
	}
}
