package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeBlockLine is a line of a fenced block of the README.
type readmeBlockLine struct {
	n             int    // line number
	lang, section string // the block's info string, the "## " section holding it
	text          string
}

// readmeBlockLines are the lines of the README's fenced blocks.
func readmeBlockLines(t *testing.T) []readmeBlockLine {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []readmeBlockLine
	var fence, lang, section string
	for i, line := range strings.Split(string(readme), "\n") {
		switch {
		case fence == "" && strings.HasPrefix(line, "```"):
			fence = line[:strings.LastIndex(line, "`")+1]
			lang = strings.TrimSpace(line[len(fence):])
		case fence != "" && line == fence:
			fence = ""
		case fence != "":
			out = append(out, readmeBlockLine{i + 1, lang, section, line})
		case strings.HasPrefix(line, "## "):
			section = line
		}
	}
	return out
}

// TestREADMEOutsideRepository: what the README tells a user to run works
// with drydock installed, outside this repository: outside "##
// Development" no block runs drydock from source (`go run ./`, `make`,
// bin/), and every plain `drydock ...` command of a sh block is one a
// readme script runs.
func TestREADMEOutsideRepository(t *testing.T) {
	_, scripts := readmeScripts(t)
	fromSource := regexp.MustCompile(`^\s*(go run \./|make\b|\./bin/|bin/drydock)`)
	for _, l := range readmeBlockLines(t) {
		if l.section == "## Development" {
			continue
		}
		if fromSource.MatchString(l.text) {
			t.Errorf("README.md:%d: %q works only in a checkout of drydock: show the installed drydock", l.n, l.text)
		}
		if l.lang == "sh" && strings.HasPrefix(l.text, "drydock ") && !strings.ContainsAny(l.text, "|<>;#$") {
			checkRuns(t, scripts, l.text, fmt.Sprintf("README.md:%d", l.n))
		}
	}
}

// TestPinnedRelease: every install path pins the release that the
// constant release names: the README's install lines, install.sh's and
// the pre-commit wrapper's default, action.yml's version input.
func TestPinnedRelease(t *testing.T) {
	semver := `(v\d+\.\d+\.\d+\S*)`
	files := []struct {
		path string
		pins []string // regexps, each with the version as its group, each found at least once
	}{
		{"../../README.md", []string{
			`install\.sh \| sh -s -- .* ` + semver,
			`go install github\.com/drydock-dev/drydock/cmd/\.\.\.@` + semver,
			`ghcr\.io/drydock-dev/drydock:` + semver,
			`uses: drydock-dev/drydock@` + semver,
			`rev: ` + semver,
			`--branch ` + semver,
			`installs the release ` + semver,
		}},
		{"../../install.sh", []string{`(?m)^version=` + semver + `$`}},
		{"../../scripts/pre-commit.sh", []string{`(?m)^version=` + semver + `$`}},
		{"../../action.yml", []string{`(?m)^  version:\n.*\n    default: ` + semver + `$`}},
	}
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, pin := range f.pins {
			ms := regexp.MustCompile(pin).FindAllSubmatch(data, -1)
			if len(ms) == 0 {
				t.Errorf("%s: nothing matches %s", f.path, pin)
			}
			for _, m := range ms {
				if string(m[1]) != release {
					t.Errorf("%s: %q pins %s, but the release (cmd/drydock-engine/version.go) is %s", f.path, m[0], m[1], release)
				}
			}
		}
	}
}
