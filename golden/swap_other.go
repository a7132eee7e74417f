//go:build !linux

package golden

import "errors"

// renameExchange is not available here: swaps are journaled.
func renameExchange(a, b string) error { return errors.ErrUnsupported }
