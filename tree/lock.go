package tree

import (
	"fmt"
	"os"
	"time"
)

// LockWait is how long an update waits for another update of the same
// directory (in this or another process) to finish before it fails.
var LockWait = 30 * time.Second

// lock takes the update lock of the directory root (LockFile inside it),
// waiting up to LockWait; the returned function releases and removes it.
// Because the lock lives in the directory, every run updating it sees the
// same lock whatever its environment ($TMPDIR, user).
func lock(root *os.Root, target string) (func(), error) {
	deadline := time.Now().Add(LockWait)
	for {
		unlock, held, err := tryLock(root)
		if err != nil {
			return nil, fmt.Errorf("directory %s: lock %s: %w", target, LockFile, err)
		}
		if !held {
			return unlock, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("directory %s: another drydock is updating it (its lock %s held for over %s)", target, LockFile, LockWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
