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
// it finds there: a suite for each kind of thing found (KubeVela
// Applications and definitions, Karmada policies and clusters, addons,
// Gatekeeper constraints, plain manifests). It never overwrites a file,
// never writes into an existing policy directory, nor writes through a
// symbolic link leading out of the current directory.
func runInit(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("init", "init", "Writes a starter drydock.yaml (a suite for each kind of thing found here: KubeVela Applications\n"+
		"and definitions, Karmada policies and clusters, addons, Gatekeeper constraints, plain manifests),\n"+
		"policy/main.rego (unless policy/ exists) and .github/workflows/drydock.yml (drydock "+release+":\n"+
		"test on every push and pull request, diff on pull requests). Existing files are kept.")
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
	suites := starterSuites(name, found)
	config, err := starterConfig(suites)
	if err != nil {
		fmt.Fprintf(stderr, "drydock init: %s\n", errText(err))
		return exitUsage
	}
	files := []starterFile{{"drydock.yaml", config}}
	if !found.policyExists {
		files = append(files, starterFile{filepath.Join(policyDir, "main.rego"), starterPolicy})
	}
	files = append(files, starterFile{filepath.Join(".github", "workflows", "drydock.yml"), starterWorkflow(suites)})
	if err := writeStarters(files, stdout); err != nil {
		fmt.Fprintf(stderr, "drydock init: %s\n", errText(err))
		return exitUsage
	}
	if found.policyExists {
		fmt.Fprintf(stdout, "kept %s/ (it exists): nothing written into it\n", policyDir)
	}
	for _, st := range suites {
		fmt.Fprintf(stdout, "suite %s: %s\n", st.name, st.what)
	}
	if len(found.inputs)+len(found.definitions)+len(found.karmada)+len(found.addons)+len(found.gatekeeper)+len(found.plain) == 0 {
		fmt.Fprintln(stdout, "no Application found here: list your inputs in drydock.yaml")
	}
	fmt.Fprintln(stdout, "next: drydock test --update (writes the golden trees), then commit them")
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

// surveyed is what init found in a repository, as paths relative to it:
// what each kind of suite reads.
type surveyed struct {
	// KubeVela: directories (or files at the root) of Applications, of
	// definitions, and the files of Cluster objects.
	inputs, definitions, clusters []string
	// karmada are the directories holding Karmada's PropagationPolicies
	// and OverridePolicies, with the resource templates beside them.
	karmada []string
	// addons are addon directories: metadata.yaml with template.cue,
	// template.yaml or resources/.
	addons []string
	// gatekeeper are the directories of ConstraintTemplates and
	// constraints.
	gatekeeper []string
	// crds are the directories of CustomResourceDefinitions.
	crds []string
	// plain are the directories of other manifests, which no
	// Application or Karmada policy sits beside: checked as they are.
	plain []string
	// policy says whether a policy/ directory exists (init then writes
	// nothing into it) and whether it holds Rego.
	policyExists, policyRego bool
}

// policyDir is the directory of conftest-style policies init refers to
// (conftest's default): written with a starter policy only when absent.
const policyDir = "policy"

// karmadaPolicyKinds are Karmada's propagation and override policies.
var karmadaPolicyKinds = map[string]bool{"PropagationPolicy": true, "ClusterPropagationPolicy": true,
	"OverridePolicy": true, "ClusterOverridePolicy": true}

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
	// Addons first: what their directories hold is the addon's.
	for _, f := range files {
		if filepath.Base(f) == "metadata.yaml" && isAddonDir(filepath.Dir(f)) {
			rel, _ := filepath.Rel(root, filepath.Dir(f))
			add(&s.addons, rel)
		}
	}
	inAddon := func(rel string) bool {
		return slices.ContainsFunc(s.addons, func(a string) bool { return a == "." || withinRel(a, rel) })
	}
	var other []string // directories of other objects
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		if inAddon(rel) {
			continue
		}
		if withinRel(policyDir, rel) {
			continue // conftest's policy data, not manifests
		}
		data, err := manifest.ReadFile(f)
		if err != nil {
			if errors.Is(err, fs.ErrPermission) || errors.Is(err, manifest.ErrTooLarge) {
				continue // not something init can survey
			}
			return s, err
		}
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
			group, kind := manifest.Group(o.APIVersion()), o.Kind()
			switch {
			case kind == "" || o.APIVersion() == "":
				// not a Kubernetes object
			case group == "core.oam.dev" && kind == "Application":
				add(&s.inputs, where)
			case group == "core.oam.dev" && render.IsDefinitionKind(kind):
				add(&s.definitions, where)
			case group == "core.oam.dev":
				// Workflows and Policies: read with the Applications
			case cluster.IsClusterObject(o):
				add(&s.clusters, rel)
			case group == "policy.karmada.io" && karmadaPolicyKinds[kind]:
				add(&s.karmada, where)
			case group == "templates.gatekeeper.sh" || group == "constraints.gatekeeper.sh":
				add(&s.gatekeeper, where)
			case group == "test.gatekeeper.sh" || group == "expansion.gatekeeper.sh" || group == "mutations.gatekeeper.sh":
				// gator's suites and Gatekeeper's own configuration
			case group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition":
				add(&s.crds, where)
			default:
				add(&other, where)
			}
		}
	}
	// Other manifests are plain unless they sit in (or below) a directory
	// another suite reads: Karmada's resource templates, the objects
	// beside Applications, gatekeeper samples.
	taken := slices.Concat(s.inputs, s.karmada, s.gatekeeper, s.definitions, s.crds)
	for _, d := range other {
		if !slices.ContainsFunc(taken, func(t string) bool { return withinRel(t, d) }) {
			add(&s.plain, d)
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, policyDir)); err == nil {
		s.policyExists = true
		if fi.IsDir() {
			rego, _ := manifest.WalkFiles(filepath.Join(root, policyDir), manifest.WalkOptions{
				Keep: func(p string) bool { return strings.HasSuffix(p, ".rego") && !strings.HasSuffix(p, "_test.rego") },
			})
			s.policyRego = len(rego) > 0
		}
	}
	return s, nil
}

// addonList is drydock.yaml's addons: a {dir: DIR} per addon directory.
func addonList(dirs []string) *yaml.Node {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, a := range dirs {
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{scalar("dir"), scalar(a)}})
	}
	return list
}

// outermost are the paths of ps that are not below another of them (a
// directory input reads what is below it).
func outermost(ps []string) []string {
	var out []string
	for _, p := range ps {
		if !slices.ContainsFunc(ps, func(q string) bool { return q != p && withinRel(q, p) }) {
			out = append(out, p)
		}
	}
	return out
}

// below are the directories of dirs inside one of the inputs, as
// exclude patterns (slash paths: a pattern that matches a directory
// leaves out everything under it).
func below(dirs, inputs []string) []string {
	var out []string
	for _, d := range dirs {
		if slices.ContainsFunc(inputs, func(in string) bool { return in != d && withinRel(in, d) }) {
			out = append(out, filepath.ToSlash(d))
		}
	}
	return out
}

// withinRel reports whether the relative path p is dir or below it.
func withinRel(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}

// isAddonDir reports whether dir is a KubeVela addon: metadata.yaml with
// template.cue, template.yaml or a resources/ directory (what `vela addon
// enable` reads).
func isAddonDir(dir string) bool {
	for _, name := range []string{"template.cue", "template.yaml", "resources"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// starterSuite is a suite init writes: its name, what it is (for the
// summary) and its keys in order.
type starterSuite struct {
	name, what string
	// rendered: drydock diff shows its changes on pull requests.
	rendered bool
	keys     []*yaml.Node
}

func (s *starterSuite) add(key string, value *yaml.Node) *yaml.Node {
	s.keys = append(s.keys, scalar(key), value)
	return value
}

// starterSuites are the suites of what s found, name the KubeVela suite's
// (the others are name-karmada, name-addons, name-gatekeeper and
// name-manifests): one per kind of thing found, each reading only its
// own, and the KubeVela suite when nothing is found (to be filled in).
func starterSuites(name string, s surveyed) []*starterSuite {
	var out []*starterSuite
	policies := func(st *starterSuite) {
		if !s.policyExists || s.policyRego {
			st.add("policies", flowList([]string{policyDir}))
		}
	}
	karmada := len(s.karmada) > 0
	if len(s.inputs) > 0 || len(s.definitions) > 0 || (len(s.karmada)+len(s.addons)+len(s.gatekeeper)+len(s.plain) == 0) {
		st := &starterSuite{name: name, what: "KubeVela: Applications and definitions", rendered: true}
		if len(s.inputs) > 0 {
			inputs := outermost(s.inputs)
			st.add("inputs", flowList(inputs))
			if ex := below(s.addons, inputs); len(ex) > 0 {
				st.add("exclude", flowList(ex)).LineComment = "# the addons' own files, not inputs"
			}
		} else {
			st.add("inputs", flowList([]string{"apps"})).LineComment = "# files or directories of Applications"
		}
		if len(s.definitions) > 0 {
			st.add("definitions", flowList(s.definitions))
		}
		if len(s.addons) > 0 && len(s.inputs) > 0 {
			// Installed first, as on a hub: their definitions serve the
			// Applications (the addon suite checks each addon alone).
			st.add("addons", addonList(s.addons))
			st.keys[len(st.keys)-2].LineComment = "# installed first: the Applications may use their definitions"
		}
		if len(s.clusters) > 0 { // the inventory the topologies place on
			st.add("clusters", flowList(s.clusters))
		}
		if len(s.crds) > 0 {
			st.add("crds", flowList(s.crds))
		}
		st.add("golden", scalar("golden/"+name))
		policies(st)
		out = append(out, st)
	}
	if karmada {
		st := &starterSuite{name: name + "-karmada", what: "Karmada: policies, resource templates and clusters", rendered: true}
		st.add("inputs", flowList(s.karmada))
		if len(s.clusters) > 0 {
			st.add("clusters", flowList(s.clusters))
		}
		if len(s.crds) > 0 {
			st.add("crds", flowList(s.crds))
		}
		st.add("golden", scalar("golden/"+name+"-karmada"))
		policies(st)
		out = append(out, st)
	}
	if len(s.addons) > 0 {
		st := &starterSuite{name: name + "-addons", what: "KubeVela addons", rendered: true}
		st.add("addons", addonList(s.addons))
		st.add("golden", scalar("golden/"+name+"-addons"))
		policies(st)
		out = append(out, st)
	}
	if len(s.gatekeeper) > 0 {
		// The constraints check the plain manifests, else the KubeVela
		// render, else the Karmada one.
		st := &starterSuite{name: name + "-gatekeeper", what: "Gatekeeper: ConstraintTemplates and constraints"}
		switch {
		case len(s.plain) > 0:
			st.add("inputs", flowList(s.plain))
			st.add("plain", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		case len(s.inputs) > 0:
			st.add("inputs", flowList(s.inputs))
			if len(s.definitions) > 0 {
				st.add("definitions", flowList(s.definitions))
			}
		case karmada:
			st.add("inputs", flowList(s.karmada))
		default:
			st.add("inputs", flowList([]string{"manifests"})).LineComment = "# what the constraints check"
		}
		if !st.plain() && len(s.clusters) > 0 {
			st.add("clusters", flowList(s.clusters))
		}
		st.add("gatekeeper", flowList(s.gatekeeper))
		if !st.plain() {
			st.add("validate", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}).LineComment = "# validated by the other suites"
		}
		out = append(out, st)
	}
	if len(s.plain) > 0 {
		st := &starterSuite{name: name + "-manifests", what: "plain manifests, checked as they are by the policies"}
		st.add("inputs", flowList(s.plain))
		st.add("plain", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		policies(st)
		out = append(out, st)
	}
	return out
}

// plain reports whether the suite has plain: true.
func (s *starterSuite) plain() bool {
	for i := 0; i+1 < len(s.keys); i += 2 {
		if s.keys[i].Value == "plain" {
			return true
		}
	}
	return false
}

// starterConfig is the starter drydock.yaml of the suites. It goes
// through the YAML encoder, so any directory name (a,b, yes, #notes)
// reads back as itself.
func starterConfig(suites []*starterSuite) (string, error) {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, st := range suites {
		m := &yaml.Node{Kind: yaml.MappingNode, Content: append([]*yaml.Node{scalar("name"), scalar(st.name)}, st.keys...)}
		m.HeadComment = "# " + st.what
		list.Content = append(list.Content, m)
	}
	top := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{scalar("suites"), list}}
	top.HeadComment = "# drydock test renders each suite, compares it with its golden tree,\n# validates its objects for their clusters and runs its OPA policies.\n# Every key: docs/reference/drydock.yaml.md."
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

// starterWorkflow is the GitHub Actions workflow: drydock test on every
// push and pull request, and on pull requests drydock diff of each
// rendered suite against the pull request's base, with the drydock
// GitHub Action of the pinned release (a release binary, no Go).
func starterWorkflow(suites []*starterSuite) string {
	var b strings.Builder
	b.WriteString(`name: drydock
on:
  push:
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      security-events: write
    steps:
      - uses: actions/checkout@v4
      - uses: drydock-dev/drydock@` + release + `
        with:
          command: test
          args: --sarif drydock.sarif
      - uses: github/codeql-action/upload-sarif@v3
        if: always()
        with: {sarif_file: drydock.sarif}
`)
	var diffs []*starterSuite
	for _, st := range suites {
		if st.rendered {
			diffs = append(diffs, st)
		}
	}
	if len(diffs) == 0 {
		return b.String()
	}
	b.WriteString(`  diff:
    if: github.event_name == 'pull_request'
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v4
        with: {fetch-depth: 0} # the base revision's objects
`)
	for _, st := range diffs {
		fmt.Fprintf(&b, `      - uses: drydock-dev/drydock@%s
        with:
          command: diff
          args: %q
`, release, "--suite "+st.name)
	}
	return b.String()
}
