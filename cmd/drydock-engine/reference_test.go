package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/reference from the commands' flags (make docs)")

const referenceDir = "../../docs/reference"

// TestReferenceDocs: docs/reference is what the commands' flags generate,
// page for page (make docs rewrites it), and each page names every flag of
// its command.
func TestReferenceDocs(t *testing.T) {
	t.Setenv("CI", "") // test --ci's default follows it
	docs := referenceDocs()
	ref, err := configReference()
	if err != nil {
		t.Fatal(err)
	}
	docs["drydock.yaml.md"] = ref
	if *updateDocs {
		if err := os.RemoveAll(referenceDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(referenceDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range docs {
			if err := os.WriteFile(filepath.Join(referenceDir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(referenceDir)
	if err != nil {
		t.Fatalf("%v: run make docs", err)
	}
	var committed []string
	for _, e := range entries {
		committed = append(committed, e.Name())
		want, ok := docs[e.Name()]
		if !ok {
			t.Errorf("docs/reference/%s: no command generates it (run make docs)", e.Name())
			continue
		}
		got, err := os.ReadFile(filepath.Join(referenceDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("docs/reference/%s differs from the commands' flags: run make docs", e.Name())
		}
	}
	for name := range docs {
		if !slices.Contains(committed, name) {
			t.Errorf("docs/reference/%s is missing: run make docs", name)
		}
	}
	for _, c := range describeCommands() {
		page := docs[strings.ReplaceAll(c.name, " ", "-")+".md"]
		for _, f := range c.flags() {
			if !strings.Contains(page, "`--"+f.name+"`") {
				t.Errorf("%s: page has no --%s", c.name, f.name)
			}
		}
	}
}

// TestMarkdownEscapes: help text cannot break a table or become HTML.
func TestMarkdownEscapes(t *testing.T) {
	if got := mdCell("a|b <c>\nd"); got != `a\|b &lt;c&gt; d` {
		t.Errorf("mdCell: %q", got)
	}
	if got := mdText("x <y>\nz"); got != "x &lt;y&gt;  \nz" {
		t.Errorf("mdText: %q", got)
	}
	if capitalize("") != "" || capitalize("ab") != "Ab" {
		t.Error("capitalize")
	}
}
