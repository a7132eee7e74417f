package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/report"
)

// Progress and colour are for terminals only: a buffer, a pipe or a file
// gets neither.
func TestNoTerminalNoDecoration(t *testing.T) {
	var buf bytes.Buffer
	if interactive(&buf) || colour(&buf) || startProgress(&buf, "%d/%d") != nil {
		t.Error("a buffer is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if interactive(f) {
		t.Error("a file is not a terminal")
	}
	var p *progress
	p.end() // a nil progress ends quietly
}

func TestTextColour(t *testing.T) {
	res := &check.Result{Suites: []*check.SuiteResult{{Name: "s", Findings: []check.Finding{{Suite: "s", Check: "render", Level: check.LevelError, Message: "m"}}}}}
	var plain, painted bytes.Buffer
	if err := (report.Text{}).Write(&plain, res); err != nil {
		t.Fatal(err)
	}
	if err := (report.Text{Colour: true}).Write(&painted, res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("plain report has escapes: %q", plain.String())
	}
	for _, want := range []string{"\x1b[31mFAIL\x1b[0m", "\x1b[31merror\x1b[0m"} {
		if !strings.Contains(painted.String(), want) {
			t.Errorf("coloured report lacks %q: %q", want, painted.String())
		}
	}
}

// TestRawUnwraps: colours and the progress line reach the writer under
// run's StickyWriter and PrintableWriter, which would make them visible.
func TestRawUnwraps(t *testing.T) {
	var buf bytes.Buffer
	w := &report.PrintableWriter{W: &report.StickyWriter{W: &buf}}
	if got := raw(w); got != &buf {
		t.Errorf("raw = %T, want the buffer", got)
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := raw(&report.PrintableWriter{W: f}); got != f {
		t.Errorf("raw = %T, want the file", got)
	}
}
