package golden

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// LockWait is how long Update waits for another Update of the same
// directory (in this or another process) to finish before it fails.
var LockWait = 30 * time.Second

// lockPath is the lock file of the golden directory target (absolute,
// resolved): in the temporary directory, named by a hash of the path, so
// the repository holds no lock files.
func lockPath(target string) string {
	sum := sha256.Sum256([]byte(target))
	return filepath.Join(os.TempDir(), "drydock-golden-"+hex.EncodeToString(sum[:8])+".lock")
}

// lock takes the update lock of target, waiting up to LockWait; the
// returned function releases it.
func lock(target string) (func(), error) {
	name := lockPath(target)
	deadline := time.Now().Add(LockWait)
	for {
		unlock, held, err := tryLock(name)
		if err != nil {
			return nil, fmt.Errorf("golden directory %s: lock %s: %w", target, name, err)
		}
		if !held {
			return unlock, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("golden directory %s: another drydock is updating it (lock %s held for over %s)", target, name, LockWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
