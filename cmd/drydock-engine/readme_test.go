package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// sample is a README block marked `<!-- pinned: readme/NAME -->`: what
// the README shows drydock printing.
type sample struct {
	name string
	line int
	body string
}

var pinnedMarker = regexp.MustCompile(`^<!-- pinned: (\S+) -->$`)

// readmeSamples finds the pinned blocks of a README: each marker is
// followed by a fenced block (``` or more backticks, with or without an
// info string), whose lines are the sample.
func readmeSamples(readme string) ([]sample, error) {
	lines := strings.Split(readme, "\n")
	var out []sample
	for i := 0; i < len(lines); i++ {
		m := pinnedMarker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			return nil, fmt.Errorf("README.md:%d: %s is not followed by a fenced block", i+1, m[1])
		}
		fence := lines[i+1][:strings.LastIndex(lines[i+1], "`")+1]
		end := i + 2
		for end < len(lines) && lines[end] != fence {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("README.md:%d: the block of %s is not closed", i+2, m[1])
		}
		out = append(out, sample{name: m[1], line: i + 1, body: strings.Join(lines[i+2:end], "\n") + "\n"})
		i = end
	}
	return out, nil
}

// matchSample reports how a README sample differs from the whole output
// it pins. A sample line "..." stands for lines left out: the sample's
// runs of lines between them must be runs of lines of the output, in
// order, the first at its start unless "..." starts the sample and the
// last at its end unless "..." ends it. A sample without "..." is the
// whole output.
func matchSample(sample, output string) error {
	if !slices.Contains(strings.Split(sample, "\n"), "...") {
		if sample != output {
			return fmt.Errorf("the sample is not the output (-sample +output):\n%s", cmp.Diff(sample, output))
		}
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(output, "\n"), "\n")
	runs := [][]string{nil}
	for _, l := range strings.Split(strings.TrimSuffix(sample, "\n"), "\n") {
		if l == "..." {
			runs = append(runs, nil)
		} else {
			runs[len(runs)-1] = append(runs[len(runs)-1], l)
		}
	}
	pos := 0
	for i, run := range runs {
		if len(run) == 0 {
			continue // "..." starts or ends the sample
		}
		at := index(lines[pos:], run)
		switch {
		case at < 0:
			return fmt.Errorf("the output does not hold, where the sample has them, the lines\n%s", strings.Join(run, "\n"))
		case i == 0 && at != 0:
			return fmt.Errorf("the output does not start with\n%s", strings.Join(run, "\n"))
		case i == len(runs)-1 && !slices.Equal(lines[len(lines)-len(run):], run):
			return fmt.Errorf("the output does not end with\n%s", strings.Join(run, "\n"))
		}
		pos += at + len(run)
	}
	return nil
}

// index is where run starts in lines, or -1.
func index(lines, run []string) int {
	for i := 0; i+len(run) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(run)], run) {
			return i
		}
	}
	return -1
}

// TestREADMESamples: every pinned README block is what the scripts
// readme*.txtar pin in the same readme/ file, and every command the README
// shows drydock running (a "$ drydock ..." line of such a block, a
// `go run ./cmd/drydock-engine ...` line) is run by those scripts.
func TestREADMESamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	samples, err := readmeSamples(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	pinned, scripts := readmeScripts(t)
	for _, s := range samples {
		want, ok := pinned[s.name]
		if !ok {
			t.Errorf("README.md:%d: no script pins %s", s.line, s.name)
			continue
		}
		delete(pinned, s.name)
		body := s.body
		if first, rest, _ := strings.Cut(body, "\n"); strings.HasPrefix(first, "$ drydock ") {
			body = rest
			checkRuns(t, scripts, strings.TrimPrefix(first, "$ "), fmt.Sprintf("README.md:%d", s.line))
		}
		if err := matchSample(body, want); err != nil {
			t.Errorf("README.md:%d: %s: %v", s.line, s.name, err)
		}
	}
	for name := range pinned {
		t.Errorf("%s is pinned by a script but shown nowhere in README.md", name)
	}
	for i, line := range strings.Split(string(readme), "\n") {
		if args, ok := strings.CutPrefix(line, "go run ./cmd/drydock-engine "); ok {
			checkRuns(t, scripts, "drydock "+args, fmt.Sprintf("README.md:%d", i+1))
		}
	}
	if len(samples) < 4 {
		t.Errorf("found %d pinned README samples, want at least 4", len(samples))
	}
}

// readmeScripts reads testdata/script/readme*.txtar: their readme/ files
// by name, and their commands.
func readmeScripts(t *testing.T) (pinned map[string]string, commands string) {
	files, err := filepath.Glob("testdata/script/readme*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no readme scripts: %v", err)
	}
	pinned = map[string]string{}
	var sb strings.Builder
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(ar.Comment)
		for _, file := range ar.Files {
			if strings.HasPrefix(file.Name, "readme/") {
				pinned[file.Name] = string(file.Data)
			}
		}
	}
	return pinned, sb.String()
}

// checkRuns fails unless a script line runs command (exec or exits N).
func checkRuns(t *testing.T, scripts, command, where string) {
	t.Helper()
	for _, line := range strings.Split(scripts, "\n") {
		if line == "exec "+command || strings.HasPrefix(line, "exits ") && strings.HasSuffix(line, " "+command) {
			return
		}
	}
	t.Errorf("%s: no readme script runs %q", where, command)
}

// TestMatchSample: the comparison fails when a README sample and its
// pinned output differ, "..." or not.
func TestMatchSample(t *testing.T) {
	out := "a\nb\nc\nd\n"
	tests := []struct {
		sample string
		ok     bool
	}{
		{"a\nb\nc\nd\n", true},
		{"a\nb\nc\n", false},       // a whole sample must be the whole output
		{"a\nb\nc\nx\n", false},    // a changed line
		{"a\nb\n...\n", true},      // the start
		{"a\n...\nd\n", true},      // start and end
		{"a\n...\nc\n...\n", true}, // lines in between
		{"b\n...\n", false},        // not the start
		{"a\n...\nc\n", false},     // not the end
		{"a\n...\nb\nd\n", false},  // not consecutive lines
		{"a\n...\nd\n...\nc\n...\n", false},
		{"a\nb\n...\nb\n...\n", false}, // b once only
		{"a\n...\nd\n...\n", true},
		{"a\nb\n\n...\n", false}, // a blank line counts
		{"...\nc\nd\n", true},    // the end
	}
	for _, tt := range tests {
		if err := matchSample(tt.sample, out); (err == nil) != tt.ok {
			t.Errorf("matchSample(%q): %v, want ok %v", tt.sample, err, tt.ok)
		}
	}
}

func TestReadmeSamples(t *testing.T) {
	got, err := readmeSamples("x\n<!-- pinned: readme/a.txt -->\n````markdown\n```diff\n-a\n```\n````\ny\n<!-- pinned: readme/b.txt -->\n```\nb\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []sample{{name: "readme/a.txt", line: 2, body: "```diff\n-a\n```\n"}, {name: "readme/b.txt", line: 9, body: "b\n"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(sample{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"<!-- pinned: readme/a.txt -->\ntext\n", "<!-- pinned: readme/a.txt -->\n```\nnot closed\n"} {
		if _, err := readmeSamples(bad); err == nil {
			t.Errorf("readmeSamples(%q): no error", bad)
		}
	}
}
