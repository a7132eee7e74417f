package resourcekeeper

import "testing"

// KubeVela's TestShare (pkg/utils/apply/share_test.go) for AddSharer.
func TestAddSharer(t *testing.T) {
	for _, tc := range []struct{ sharedBy, want string }{
		{"", "test/app"},
		{"test/app,x/y", "test/app,x/y"},
		{"x/y", "x/y,test/app"},
		{"x/y,,a/b", "x/y,a/b,test/app"},
	} {
		if got := addSharer(tc.sharedBy, "test/app"); got != tc.want {
			t.Errorf("addSharer(%q) = %q, want %q", tc.sharedBy, got, tc.want)
		}
	}
}
