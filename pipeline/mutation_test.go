package pipeline

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/drydock-dev/drydock/manifest"
)

var mutations = flag.Int("mutations", 2, "mutations tried per conformance case by TestMutatedInputs (make fuzz runs many)")

// positioned is how every bad-input error starts: file:line[:col].
var positioned = regexp.MustCompile(`^[^\s:]+\.(yaml|yml|json|cue):\d+(:\d+)?: `)

// TestMutatedInputs renders the conformance inputs with one node broken
// at a time (a list item or a value replaced by null, a list, a mapping or
// a scalar of the wrong type) and requires that nothing panics and that
// every error names its place. The mutations are spread deterministically
// over each case's nodes; -mutations raises their number.
func TestMutatedInputs(t *testing.T) {
	cases, _ := filepath.Glob("../../shared/conformance/*/cases/*/input")
	if len(cases) == 0 {
		t.Skip("no conformance corpus beside the repository")
	}
	for _, in := range cases {
		name := strings.TrimPrefix(filepath.Dir(in), "../../shared/conformance/")
		files := inputFiles(t, in)
		if len(files) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			for _, m := range pickMutations(files, *mutations) {
				dir := t.TempDir()
				for f, data := range files {
					if f == m.file {
						data = m.data
					}
					if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				checkMutation(t, dir, m.desc)
			}
		})
	}
}

func checkMutation(t *testing.T, dir, desc string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", desc, r)
		}
	}()
	_, err := Run(context.Background(), Inputs{Paths: []string{dir}, Workers: 1})
	if err == nil {
		return
	}
	msg := strings.TrimPrefix(manifest.Format(err, nil), dir+string(filepath.Separator))
	if !positioned.MatchString(msg) {
		t.Errorf("%s: error without a position: %v", desc, err)
	}
}

// inputFiles reads a case's YAML inputs (top level only).
func inputFiles(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}

type mutation struct {
	file, desc string
	data       []byte
}

// replacements are what a node is replaced with, in turn.
var replacements = []*yaml.Node{
	{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"},
	{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle},
	{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle},
	{Kind: yaml.ScalarNode, Tag: "!!int", Value: "7"},
}

// pickMutations spreads n mutations evenly over the nodes of files.
func pickMutations(files map[string][]byte, n int) []mutation {
	type site struct {
		file string
		idx  int
	}
	var sites []site
	for _, f := range sortedNames(files) {
		for i := range countNodes(files[f]) {
			sites = append(sites, site{f, i})
		}
	}
	var out []mutation
	for k := 0; k < n && len(sites) > 0; k++ {
		s := sites[(k*len(sites))/n+(k*7)%max(1, len(sites)/n)]
		repl := replacements[k%len(replacements)]
		data, ok := mutate(files[s.file], s.idx, repl)
		if ok {
			out = append(out, mutation{file: s.file, data: data, desc: fmt.Sprintf("%s node %d -> %s", s.file, s.idx, repl.Value+repl.Tag)})
		}
	}
	return out
}

func sortedNames(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// docs decodes every document of data.
func docs(data []byte) []*yaml.Node {
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var out []*yaml.Node
	for {
		var n yaml.Node
		if dec.Decode(&n) != nil {
			return out
		}
		out = append(out, &n)
	}
}

// walkValues calls fn for every value node (list items and mapping
// values) below the documents, in order; fn returns false to stop.
func walkValues(ds []*yaml.Node, fn func(parent *yaml.Node, i int) bool) {
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if !walk(c) {
					return false
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if !fn(n, i) || !walk(c) {
					return false
				}
			}
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				if !fn(n, i) || !walk(n.Content[i]) {
					return false
				}
			}
		}
		return true
	}
	for _, d := range ds {
		if !walk(d) {
			return
		}
	}
}

func countNodes(data []byte) int {
	n := 0
	walkValues(docs(data), func(*yaml.Node, int) bool { n++; return true })
	return n
}

// mutate replaces the idx-th value node of data with repl.
func mutate(data []byte, idx int, repl *yaml.Node) ([]byte, bool) {
	ds := docs(data)
	k, done := 0, false
	walkValues(ds, func(parent *yaml.Node, i int) bool {
		if k == idx {
			cp := *repl
			parent.Content[i] = &cp
			done = true
			return false
		}
		k++
		return true
	})
	if !done {
		return nil, false
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	for _, d := range ds {
		if enc.Encode(d) != nil {
			return nil, false
		}
	}
	enc.Close()
	return []byte(b.String()), true
}
