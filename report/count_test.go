package report

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "object", "0 objects"},
		{1, "object", "1 object"},
		{2, "object", "2 objects"},
		{1, "application", "1 application"},
		{2, "application", "2 applications"},
		{1, "test", "1 test"},
		{3, "definition test", "3 definition tests"},
		{2, "policy", "2 policies"},
		{2, "key", "2 keys"},
		{2, "match", "2 matches"},
		{2, "gatekeeper case", "2 gatekeeper cases"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
