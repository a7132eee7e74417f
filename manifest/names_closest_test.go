package manifest

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"replicas", "ports", "output-dir", "a", "b", "render"}
	for s, want := range map[string]string{
		"replica":   "replicas",
		"prots":     "ports",
		"outputdir": "output-dir",
		"rendr":     "render",
		"c":         "", // one letter, all different: no suggestion
		"bb":        "b",
		"zzzzzz":    "",
		"render":    "", // the name itself is not a suggestion
	} {
		if got := Closest(s, names); got != want {
			t.Errorf("Closest(%q) = %q, want %q", s, got, want)
		}
	}
}
