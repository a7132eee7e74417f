package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/render"
)

// runInit writes a starter drydock.yaml, a policy directory and a GitHub
// Actions workflow for the repository in the current directory, from what
// it finds there: the directories holding Applications, definitions and
// Cluster objects. It never overwrites a file.
func runInit(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("init", "init", "Writes a starter drydock.yaml (a suite of the Applications, definitions and clusters found here),\npolicy/main.rego and .github/workflows/drydock.yml. Existing files are kept.")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	if cmd.fs.NArg() > 0 {
		return cmd.fail(stderr, fmt.Errorf("unexpected arguments %q: init works on the current directory", cmd.fs.Args()))
	}
	found, err := survey(".")
	if err != nil {
		fmt.Fprintf(stderr, "drydock init: %v\n", err)
		return exitUsage
	}
	wd, _ := os.Getwd()
	name := strings.ToLower(filepath.Base(wd))
	if name == "" || name == "/" || name == "." {
		name = "main"
	}
	files := []struct{ path, content string }{
		{"drydock.yaml", starterConfig(name, found)},
		{filepath.Join("policy", "main.rego"), starterPolicy},
		{filepath.Join(".github", "workflows", "drydock.yml"), starterWorkflow},
	}
	for _, f := range files {
		if _, err := os.Lstat(f.path); err == nil {
			fmt.Fprintf(stdout, "kept %s (it exists)\n", f.path)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			fmt.Fprintf(stderr, "drydock init: %v\n", err)
			return exitUsage
		}
		if err := os.WriteFile(f.path, []byte(f.content), 0o644); err != nil {
			fmt.Fprintf(stderr, "drydock init: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(stdout, "wrote %s\n", f.path)
	}
	if len(found.inputs) == 0 {
		fmt.Fprintln(stdout, "no Application found here: list your inputs in drydock.yaml")
	}
	fmt.Fprintln(stdout, "next: drydock test --update (writes the golden tree), then commit it")
	return exitOK
}

// surveyed is what init found in a repository, as paths relative to it.
type surveyed struct {
	inputs, definitions, clusters []string
}

// survey classifies the YAML and CUE files under root by what they hold.
func survey(root string) (surveyed, error) {
	var s surveyed
	files, err := manifest.WalkFiles(root, manifest.WalkOptions{
		Keep: pipeline.IsInputFile,
		SkipDir: func(name string) bool {
			return strings.HasPrefix(name, ".") || name == "golden" || name == "node_modules" || name == "vendor"
		},
	})
	if err != nil {
		return s, err
	}
	add := func(list *[]string, p string) {
		if !slices.Contains(*list, p) {
			*list = append(*list, p)
		}
	}
	for _, f := range files {
		data, err := manifest.ReadFile(f)
		if err != nil {
			if errors.Is(err, fs.ErrPermission) || errors.Is(err, manifest.ErrTooLarge) {
				continue // not something init can survey
			}
			return s, err
		}
		rel, _ := filepath.Rel(root, f)
		dir := filepath.Dir(rel)
		where := dir
		if dir == "." {
			where = rel
		}
		if strings.HasSuffix(f, ".cue") {
			if strings.Contains(string(data), "template:") {
				add(&s.definitions, where)
			}
			continue
		}
		objs, err := manifest.Decode(f, data, manifest.DecodeOptions{})
		if err != nil {
			continue // not Kubernetes YAML
		}
		for _, o := range objs {
			oam := manifest.Group(o.APIVersion()) == "core.oam.dev"
			switch {
			case oam && o.Kind() == "Application":
				add(&s.inputs, where)
			case oam && render.IsDefinitionKind(o.Kind()):
				add(&s.definitions, where)
			case cluster.IsClusterObject(o):
				add(&s.clusters, rel)
			}
		}
	}
	return s, nil
}

func starterConfig(name string, s surveyed) string {
	list := func(l []string) string { return "[" + strings.Join(l, ", ") + "]" }
	var b strings.Builder
	b.WriteString("# drydock test renders each suite, compares it with its golden tree,\n")
	b.WriteString("# validates its objects for their clusters and runs its OPA policies.\n")
	b.WriteString("suites:\n")
	fmt.Fprintf(&b, "  - name: %s\n", name)
	if len(s.inputs) > 0 {
		fmt.Fprintf(&b, "    inputs: %s\n", list(s.inputs))
	} else {
		b.WriteString("    inputs: [apps]            # files or directories of Applications\n")
	}
	if len(s.definitions) > 0 {
		fmt.Fprintf(&b, "    definitions: %s\n", list(s.definitions))
	}
	if len(s.clusters) > 0 {
		fmt.Fprintf(&b, "    clusters: %s\n", list(s.clusters))
	}
	fmt.Fprintf(&b, "    golden: golden/%s\n", name)
	b.WriteString("    policies: [policy]\n")
	return b.String()
}

const starterPolicy = `# A conftest-style policy: deny fails drydock test, warn reports.
package main

import rego.v1

warn contains msg if {
	input.kind == "Deployment"
	some c in input.spec.template.spec.containers
	not c.resources.limits
	msg := sprintf("Deployment %s: container %s has no resource limits", [input.metadata.name, c.name])
}
`

const starterWorkflow = `name: drydock
on: [pull_request]
jobs:
  drydock:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      security-events: write
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with: {go-version: stable}
      - run: go install github.com/drydock-dev/drydock/cmd/drydock@latest
      - run: drydock test --format github --sarif drydock.sarif
      - uses: github/codeql-action/upload-sarif@v3
        if: always()
        with: {sarif_file: drydock.sarif}
`
