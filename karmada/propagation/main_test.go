package propagation

import (
	"os"
	"testing"

	"github.com/drydock-dev/drydock/internal/conformance"
)

// TestMain says loudly when the conformance corpora (the fuzz seeds) are missing,
// and fails with DRYDOCK_REQUIRE_CONFORMANCE set.
func TestMain(m *testing.M) {
	os.Exit(conformance.Guard(m, "../../../shared/conformance").Run())
}
