package main

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestShardingDocs: the drydock commands the sharding docs show (the
// README's section, docs/sharding.md, the example workflow) use only
// flags their command has, and the example workflow's matrix is shards
// 1..N of the N its commands give --shard.
func TestShardingDocs(t *testing.T) {
	flags := map[string][]string{}
	for _, c := range describeCommands() {
		for _, f := range c.flags() {
			flags[c.name] = append(flags[c.name], "--"+f.name)
			if f.short != "" {
				flags[c.name] = append(flags[c.name], "-"+f.short)
			}
		}
	}
	read := func(name string) string {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	readme := read("../../README.md")
	_, section, ok := strings.Cut(readme, "### Sharding across CI jobs")
	section, _, _ = strings.Cut(section, "\n## ")
	if !ok {
		t.Fatal("README.md has no section Sharding across CI jobs")
	}
	workflow := read("../../examples/github-actions/drydock-sharded.yml")
	docs := map[string]string{"README.md": section, "docs/sharding.md": read("../../docs/sharding.md"), "drydock-sharded.yml": workflow}
	command := regexp.MustCompile(`drydock (test|report merge)( [^|#\x60\n]*)`)
	seen := map[string]int{}
	for name, text := range docs {
		for _, m := range command.FindAllStringSubmatch(text, -1) {
			for _, word := range strings.Fields(m[2]) {
				if !strings.HasPrefix(word, "-") {
					continue
				}
				flag, _, _ := strings.Cut(word, "=")
				if !slices.Contains(flags[m[1]], flag) {
					t.Errorf("%s: drydock %s has no flag %s (in %q)", name, m[1], flag, strings.TrimSpace(m[0]))
				}
				seen[m[1]+" "+flag]++
			}
		}
	}
	for _, want := range []string{"test --shard", "test --format", "test --output-file", "report merge --format", "report merge --output-file"} {
		if seen[want] == 0 {
			t.Errorf("the sharding docs never show drydock %s", want)
		}
	}
	var wf struct {
		Jobs map[string]struct {
			Strategy struct {
				Matrix struct {
					Shard []int `yaml:"shard"`
				} `yaml:"matrix"`
			} `yaml:"strategy"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(workflow), &wf); err != nil {
		t.Fatal(err)
	}
	shards := wf.Jobs["test"].Strategy.Matrix.Shard
	n := regexp.MustCompile(`--shard \$\{\{ matrix\.shard \}\}/(\d+)`).FindStringSubmatch(workflow)
	if n == nil || len(shards) == 0 {
		t.Fatalf("the workflow has no matrix of shards and --shard ${{ matrix.shard }}/N")
	}
	for i, s := range shards {
		if s != i+1 || n[1] != strconv.Itoa(len(shards)) {
			t.Errorf("the matrix %v is not shards 1..%s", shards, n[1])
			break
		}
	}
}
