package deftest

import (
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// prepared is tests with their context defaults filled in, as Prepare
// leaves them.
func prepared(t *testing.T, tests ...Test) []Test {
	t.Helper()
	f := File{Tests: tests}
	if err := Prepare("t_test.yaml", &manifest.Object{}, &f); err != nil {
		t.Fatal(err)
	}
	return f.Tests
}
