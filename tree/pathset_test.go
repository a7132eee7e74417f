package tree

import (
	"errors"
	"fmt"
	"path"
	"testing"
)

// TestPathSet: valid paths are added once (a second Add is a no-op), and a
// path refused by validPath, inside a .git directory (any case, any
// depth) or both a file and a directory of the set (in either order) is
// refused with ErrInvalidPath.
func TestPathSet(t *testing.T) {
	s := NewPathSet(true)
	for _, p := range []string{"a.yaml", "c1/ns/x.yaml", "c1/ns/y.yaml", "c1/z.yaml", "c1/ns/x.yaml", "d/e/f/g.yaml"} {
		if err := s.Add(p); err != nil {
			t.Fatalf("Add(%q): %v", p, err)
		}
	}
	if s.Len() != 5 || !s.Has("c1/ns/x.yaml") || s.Has("c1/ns") || s.Has("c1") {
		t.Errorf("Len %d, Has c1/ns/x.yaml %t, c1/ns %t, c1 %t", s.Len(), s.Has("c1/ns/x.yaml"), s.Has("c1/ns"), s.Has("c1"))
	}
	for _, p := range []string{
		".git/x.yaml", "a/.GIT/x.yaml", "a/b/.Git/c/x.yaml", // a .git directory
		"c1/z.yaml/x.yaml", "a.yaml/b.yaml", // a file of the set as a directory
		"../x.yaml", "a//b.yaml", "./a.yaml", "/a.yaml", "a/./b.yaml", "x.txt", "", // not clean, or not .yaml
	} {
		if err := s.Add(p); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("Add(%q) = %v, want ErrInvalidPath", p, err)
		}
	}
	// A directory of the set added as a file.
	d := NewPathSet(false)
	if err := d.Add("c1/ns/x.yaml"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"c1/ns", "c1"} {
		if err := d.Add(p); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("Add(%q) after c1/ns/x.yaml = %v, want ErrInvalidPath", p, err)
		}
	}
	if err := d.Add("c1/.gitkeep"); err != nil { // .git only as a whole element
		t.Errorf("Add(c1/.gitkeep): %v", err)
	}
}

// TestParentDir: parentDir is path.Dir for clean relative paths.
func TestParentDir(t *testing.T) {
	for _, p := range []string{"a.yaml", "a/b.yaml", "a/b/c/d.yaml", "a/b"} {
		if got, want := parentDir(p), path.Dir(p); got != want {
			t.Errorf("parentDir(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestValidPathAllocs: checking a valid path allocates nothing (a run
// checks every rendered path).
func TestValidPathAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() {
		if err := validPath("c1/team-3/deployment.apps_web-7.yaml", true); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("validPath allocates %.0f times", n)
	}
}

// TestPathSetSizeAllocs: a PathSet sized for its paths does not grow its
// map of them a step at a time (what it allocates is its directories').
func TestPathSetSizeAllocs(t *testing.T) {
	paths := make([]string, 2000)
	for i := range paths {
		paths[i] = fmt.Sprintf("local/team-%d/deployment.apps_web-%d.yaml", i%10, i)
	}
	fill := func(s *PathSet) {
		for _, p := range paths {
			if err := s.Add(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	grown := testing.AllocsPerRun(5, func() { fill(NewPathSet(true)) })
	sized := testing.AllocsPerRun(5, func() { fill(NewPathSetSize(true, len(paths))) })
	if sized > 12 || sized >= grown {
		t.Errorf("a sized PathSet of 2,000 paths allocates %.0f times (grown: %.0f), want at most 12", sized, grown)
	}
}
