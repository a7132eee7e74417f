package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/render"
)

// runInit writes a starter drydock.yaml, a policy directory and a GitHub
// Actions workflow for the repository in the current directory, from what
// it finds there: the directories holding Applications, definitions and
// Cluster objects. It never overwrites a file, nor writes through a
// symbolic link leading out of the current directory.
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
		fmt.Fprintf(stderr, "drydock init: %s\n", errText(err))
		return exitUsage
	}
	wd, _ := os.Getwd()
	name := strings.ToLower(filepath.Base(wd))
	if name == "" || name == "/" || name == "." {
		name = "main"
	}
	config, err := starterConfig(name, found)
	if err != nil {
		fmt.Fprintf(stderr, "drydock init: %s\n", errText(err))
		return exitUsage
	}
	files := []starterFile{
		{"drydock.yaml", config},
		{filepath.Join("policy", "main.rego"), starterPolicy},
		{filepath.Join(".github", "workflows", "drydock.yml"), starterWorkflow},
	}
	if err := writeStarters(files, stdout); err != nil {
		fmt.Fprintf(stderr, "drydock init: %s\n", errText(err))
		return exitUsage
	}
	if len(found.inputs) == 0 {
		fmt.Fprintln(stdout, "no Application found here: list your inputs in drydock.yaml")
	}
	fmt.Fprintln(stdout, "next: drydock test --update (writes the golden tree), then commit it")
	return exitOK
}

// starterFile is a file init writes: its path below the current
// directory and its content.
type starterFile struct{ path, content string }

// writeStarters creates each file that does not exist yet, after checking
// that none of their paths passes a symbolic link leading out of the
// current directory; an existing file (or anything else at its path) is
// kept. Files are created exclusively, their directories made, through an
// os.Root at the current directory: nothing outside it is written, even
// by a link made after the check.
func writeStarters(files []starterFile, stdout io.Writer) error {
	wd, err := filepath.EvalSymlinks(".")
	if err == nil {
		wd, err = filepath.Abs(wd)
	}
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := checkInsideDir(wd, f.path); err != nil {
			return err
		}
	}
	root, err := os.OpenRoot(".")
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range files {
		created, err := createNew(root, f)
		switch {
		case err != nil:
			return fmt.Errorf("write %s: %w", f.path, err)
		case created:
			fmt.Fprintf(stdout, "wrote %s\n", f.path)
		default:
			fmt.Fprintf(stdout, "kept %s (it exists)\n", f.path)
		}
	}
	return nil
}

// checkInsideDir checks each existing component of the relative path p
// below the directory wd (absolute, resolved): a symbolic link must lead
// to a place inside wd.
func checkInsideDir(wd, p string) error {
	at := ""
	for part := range strings.SplitSeq(filepath.Clean(p), string(filepath.Separator)) {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := filepath.EvalSymlinks(at)
		if err == nil {
			target, err = filepath.Abs(target)
		}
		if err != nil {
			return fmt.Errorf("%s: a symbolic link that does not resolve (%w): %s not written", at, err, p)
		}
		if !manifest.Within(wd, target) {
			return fmt.Errorf("%s: a symbolic link that leads outside the repository (to %s): %s not written", at, target, p)
		}
	}
	return nil
}

// createNew creates f below root unless something is at its path
// (created false); its directories are made as needed.
func createNew(root *os.Root, f starterFile) (created bool, err error) {
	if _, err := root.Lstat(f.path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if err := root.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return false, err
	}
	out, err := root.OpenFile(f.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return false, err
	}
	_, err = io.WriteString(out, f.content)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err == nil, err
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

// starterConfig is the starter drydock.yaml: one suite, name, of what s
// found. It goes through the YAML encoder, so any directory name (a,b,
// yes, #notes) reads back as itself.
func starterConfig(name string, s surveyed) (string, error) {
	suite := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, value *yaml.Node) *yaml.Node {
		suite.Content = append(suite.Content, scalar(key), value)
		return value
	}
	add("name", scalar(name))
	if len(s.inputs) > 0 {
		add("inputs", flowList(s.inputs))
	} else {
		add("inputs", flowList([]string{"apps"})).LineComment = "# files or directories of Applications"
	}
	if len(s.definitions) > 0 {
		add("definitions", flowList(s.definitions))
	}
	if len(s.clusters) > 0 {
		add("clusters", flowList(s.clusters))
	}
	add("golden", scalar("golden/"+name))
	add("policies", flowList([]string{"policy"}))
	top := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{scalar("suites"), {Kind: yaml.SequenceNode, Content: []*yaml.Node{suite}}}}
	top.HeadComment = "# drydock test renders each suite, compares it with its golden tree,\n# validates its objects for their clusters and runs its OPA policies."
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{top}}); err != nil {
		return "", fmt.Errorf("encode drydock.yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("encode drydock.yaml: %w", err)
	}
	return b.String(), nil
}

// scalar is the string s as a YAML node: plain when it is a simple path
// that no YAML version reads as anything but that string, else
// double-quoted (a,b, #notes, x: y, -dash, 2024, and yes, which YAML 1.1
// reads as a boolean).
func scalar(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if !plainPath().MatchString(s) || yaml11Words[strings.ToLower(s)] {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// plainPath matches the strings init writes unquoted: a letter, _ or /
// first, then letters, digits and _ . / -.
var plainPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9_./-]*$`) })

// yaml11Words are the plain words YAML 1.1 (and so KubeVela's and many
// other tools' parsers) reads as booleans or null.
var yaml11Words = map[string]bool{"y": true, "yes": true, "n": true, "no": true, "true": true, "false": true,
	"on": true, "off": true, "null": true}

// flowList is a list of strings in flow style ([a, b]).
func flowList(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, it := range items {
		n.Content = append(n.Content, scalar(it))
	}
	return n
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
