package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/schemas"
)

// configKey is one key of drydock.yaml as its reference documents it.
type configKey struct {
	path, typ, desc string
	// def, commands and example: configKeyExtras's, or made from the
	// type when a key has none there.
	def, commands, example string
}

// configKeyExtras are what the fields of check.Config cannot say of a
// key: its default, the commands that read it and an example (the key's
// own lines; its parents are added). TestConfigReference fails on a key
// missing here, so no key ships with a guessed default or command.
var configKeyExtras = map[string]struct{ def, commands, example string }{
	"suites":                             {"required", "every command that reads drydock.yaml", "suites:\n  - name: shop\n    inputs: [apps]"},
	"limits":                             {"none", "`test`", "limits:\n  evalTimeout: 1m\n  memory: 8GiB"},
	"limits.evalTimeout":                 {"`30s` (`--eval-timeout`)", "`test` (`--eval-timeout` wins)", "evalTimeout: 2m"},
	"limits.ruleTimeout":                 {"`10s` (`--rule-timeout`)", "`test` (`--rule-timeout` wins)", "ruleTimeout: 30s"},
	"limits.memory":                      {"`4GiB` (`--memory-limit`)", "`test` (`--memory-limit` wins)", "memory: 8GiB"},
	"suites[].name":                      {"required", "`test`; `render`, `diff`, `explain`, `show`, `verify` with `--suite NAME`", "name: shop"},
	"suites[].inputs":                    {"required (a suite of `addons` alone may leave it out)", "`test`, `render`, `diff`, `explain`", "inputs: [apps, shared/app.yaml]"},
	"suites[].definitions":               {"none: the built-in definitions", "`test`, `render`, `diff`, `explain`, `show`", "definitions: [defs]"},
	"suites[].clusters":                  {"none: the hub `local` alone", "`test`, `render`, `diff`, `explain`", "clusters: [fleet/clusters.yaml]"},
	"suites[].clustersFromInputs":        {"`false`: Cluster objects among the inputs are named in a warning and left out", "`test`, `render`, `diff`, `explain`", "clustersFromInputs: true"},
	"suites[].observed":                  {"none", "`test`, `render`, `diff`, `explain`", "observed: [observed]"},
	"suites[].charts":                    {"none: a HelmRelease renders only from a chart given here or with `--charts`", "`test`, `render`, `diff`, `explain`", "charts: [charts, vendor/helm-cache]"},
	"suites[].sources":                   {"none", "`test`, `render`, `diff`, `explain`", "sources:\n  flux-system/podinfo: sources/podinfo"},
	"suites[].noBuiltins":                {"`false`", "`test`, `render`, `diff`, `explain`, `show`", "noBuiltins: true"},
	"suites[].stopAtSuspend":             {"`false`: a suspend step is taken as resumed", "`test`, `render`, `diff`, `explain`", "stopAtSuspend: true"},
	"suites[].golden":                    {"none: no golden comparison", "`test` (`test --update` writes it)", "golden: golden/shop"},
	"suites[].policies":                  {"`policy/` beside drydock.yaml when it exists", "`test`, `verify`", "policies: [policy, team-policy]"},
	"suites[].data":                      {"none", "`test`, `verify`", "data: [policy-data]"},
	"suites[].namespaces":                {"`[main]`", "`test`", "namespaces: [main, \"team.*\"]"},
	"suites[].allNamespaces":             {"`false`", "`test`", "allNamespaces: true"},
	"suites[].combine":                   {"`false`", "`test`", "combine: true"},
	"suites[].regoVersion":               {"`v1`", "`test`, `verify`", "regoVersion: v0"},
	"suites[].strictBuiltinErrors":       {"`false`", "`test`, `verify`", "strictBuiltinErrors: true"},
	"suites[].capabilities":              {"none: every built-in", "`test`, `verify`", "capabilities: caps.json"},
	"suites[].now":                       {"none: the policies have no clock", "`test`", "now: \"2026-01-02T15:04:05Z\""},
	"suites[].gatekeeper":                {"none", "`test`", "gatekeeper: [gatekeeper]"},
	"suites[].enableK8sNativeValidation": {"`true`", "`test`", "enableK8sNativeValidation: false"},
	"suites[].gatekeeperEmptyNamespace":  {"`false`: as gator verify and Gatekeeper's audit", "`test`", "gatekeeperEmptyNamespace: true"},
	"suites[].plain":                     {"`false`: the inputs are rendered", "`test` (`render`, `diff`, `explain` refuse a plain suite)", "plain: true"},
	"suites[].listItems":                 {"`false`", "`test`", "listItems: true"},
	"suites[].parser":                    {"none: each file's own, by its name", "`test`", "plain: true\nparser: toml"},
	"suites[].ignorePattern":             {"none", "`test`", "plain: true\nignorePattern: \"_test\\\\.yaml$\""},
	"suites[].strict":                    {"`false`", "`test`, `verify`", "strict: true"},
	"suites[].validate":                  {"`true`", "`test` (`render --validate` takes the suite's `crds` and `kubeVersion`)", "validate: false"},
	"suites[].kubeVersion":               {"unknown to templates; the newest embedded schemas (" + schemas.DefaultKubeVersion() + ") for validation", "`test`, `render`, `diff`, `explain`", "kubeVersion: \"1.29\""},
	"suites[].crds":                      {"none", "`test`, `render --validate`", "crds: [crds]"},
	"suites[].ignore":                    {"none", "`test`", "ignore:\n  - {path: spec.replicas, kind: Deployment, cluster: prod-eu}"},
	"suites[].ignore[].path":             {"required", "`test`", "path: metadata.labels[app.kubernetes.io/version]"},
	"suites[].ignore[].kind":             {"every kind", "`test`", "kind: Deployment"},
	"suites[].ignore[].cluster":          {"every cluster", "`test`", "cluster: prod-eu"},
	"suites[].tests":                     {"the `*_test.yaml` files under `definitions`", "`test`", "tests: [deftests]"},
	"suites[].addons":                    {"none", "`test`, `render`, `diff`, `explain`", "addons:\n  - {dir: addons/team, set: [team=payments]}"},
	"suites[].addons[].dir":              {"required", "`test`, `render`, `diff`, `explain`", "dir: addons/team"},
	"suites[].addons[].set":              {"none: the parameters' defaults", "`test`, `render`, `diff`, `explain`", "set: [team=payments, replicas=2]"},
	"suites[].addons[].setString":        {"none", "`test`, `render`, `diff`, `explain`", "setString: [version=1.10]"},
	"suites[].addons[].values":           {"none", "`test`, `render`, `diff`, `explain`", "values:\n  replicas: 2\n  image: {tag: \"1.2\"}"},
	"diff":                               {"none", "`diff`", "diff:\n  ignore: [\"Deployment:spec.replicas\"]"},
	"diff.ignore":                        {"none: every change is shown", "`diff` (with `--ignore` rules added)", "ignore: [\"Deployment:spec.replicas\", \"metadata.annotations[\\\"example.com/build\\\"]\"]"},
	"suites[].exclude":                   {"none", "`test`, `render`, `diff`, `explain`", "exclude: [\"examples/*\", \"*.tmpl.yaml\"]"},
	"suites[].fieldValidation":           {"`strict`", "`test`, `render`, `diff`, `explain`, `show`", "fieldValidation: warn"},
	"suites[].compareRevisionHash":       {"`false`", "`test`", "compareRevisionHash: true"},
}

// configKeys are the keys of drydock.yaml, from check.Config's fields
// (their json tags) in declaration order, with the descriptions their doc
// comments in check's source give. missing lists the keys without one.
func configKeys() (keys []configKey, missing []string, err error) {
	docs, err := fieldDocs(filepath.Join("..", "..", "check"))
	if err != nil {
		return nil, nil, err
	}
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "" || name == "-" {
				continue
			}
			k := configKey{path: prefix + name, typ: configTypeName(f.Type)}
			k.desc = docs[t.Name()+"."+f.Name]
			if first, rest, ok := strings.Cut(k.desc, " "); ok && first == f.Name {
				k.desc = "`" + name + "` " + rest
			}
			if k.desc == "" {
				missing = append(missing, k.path)
			}
			if x, ok := configKeyExtras[k.path]; ok {
				k.def, k.commands, k.example = x.def, x.commands, x.example
			} else {
				k.def, k.commands, k.example = zeroDefault(f.Type), "`test`", exampleOf(name, f.Type)
			}
			keys = append(keys, k)
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case ft.Kind() == reflect.Struct:
				walk(k.path+".", ft)
			case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
				walk(k.path+"[].", ft.Elem())
			}
		}
	}
	walk("", reflect.TypeFor[check.Config]())
	return keys, missing, nil
}

// fieldDocs are the doc comments of the struct fields of the Go package
// in dir (its non-test files), by Type.Field, as one line.
func fieldDocs(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, field := range st.Fields.List {
				doc := field.Doc.Text()
				if doc == "" {
					doc = field.Comment.Text()
				}
				for _, n := range field.Names {
					out[ts.Name.Name+"."+n.Name] = strings.Join(strings.Fields(doc), " ")
				}
			}
			return false
		})
	}
	return out, nil
}

// configTypeName says what a key of type t holds, as the reference
// writes it.
func configTypeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int:
		return "integer"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return "list of mappings"
		}
		return "list of strings"
	case reflect.Interface:
		return "any value"
	}
	return "mapping"
}

// zeroDefault is the default of a key not in configKeyExtras: its
// type's zero value.
func zeroDefault(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "`false`"
	case reflect.Int:
		return "`0`"
	}
	return "none"
}

// exampleOf is an example of a key not in configKeyExtras, from its type.
func exampleOf(name string, t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Bool:
		return name + ": true"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return name + ": [VALUE]"
	case t.Kind() == reflect.String:
		return name + ": VALUE"
	}
	return name + ": {}"
}

// inContext is example, the lines of the key at path, with the keys of
// its parents around it.
func inContext(path, example string) string {
	segs := strings.Split(path, ".")
	lines := strings.Split(example, "\n")
	for i := len(segs) - 2; i >= 0; i-- {
		seg := segs[i]
		var out []string
		if name, ok := strings.CutSuffix(seg, "[]"); ok {
			out = append(out, name+":", "  - "+lines[0])
			for _, l := range lines[1:] {
				out = append(out, "    "+l)
			}
		} else {
			out = append(out, seg+":")
			for _, l := range lines {
				out = append(out, "  "+l)
			}
		}
		lines = out
	}
	return strings.Join(lines, "\n")
}

// configReference is docs/reference/drydock.yaml.md.
func configReference() (string, error) {
	keys, missing, err := configKeys()
	if err != nil {
		return "", err
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("keys without a doc comment on their field in check: %s", strings.Join(missing, ", "))
	}
	var b strings.Builder
	b.WriteString("<!-- Generated from check.Config (its fields, their doc comments) by `make docs`: do not edit. -->\n\n")
	b.WriteString("# drydock.yaml reference\n\n")
	b.WriteString("drydock.yaml lists the suites `drydock test` runs; `render`, `diff`, `explain`, `show` and `verify`\n" +
		"read one suite with `--suite NAME`. Without `--config FILE`, the file is looked for in the working\n" +
		"directory, then in each parent up to the repository root. Paths are relative to the file's directory\n" +
		"and stay inside the repository. The file is read strictly: an unknown key is an error naming its\n" +
		"line and the valid keys. With `diff --base REV --suite NAME` the base side reads the file as it is\n" +
		"at `REV`.\n\n")
	b.WriteString("| Key | Type | Default | Used by |\n|---|---|---|---|\n")
	for _, k := range keys {
		anchor := strings.NewReplacer("[]", "", ".", "").Replace(strings.ToLower(k.path))
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", k.path, anchor, k.typ, mdCell(k.def), mdCell(k.commands))
	}
	for _, k := range keys {
		fmt.Fprintf(&b, "\n## `%s`\n\n", k.path)
		fmt.Fprintf(&b, "Type: %s. Default: %s. Used by: %s.\n\n", k.typ, k.def, k.commands)
		fmt.Fprintf(&b, "%s\n\n", strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(k.desc))
		fmt.Fprintf(&b, "```yaml\n%s\n```\n", inContext(k.path, k.example))
	}
	return b.String(), nil
}

// TestConfigReference: the drydock.yaml reference names every key of
// check.Config (a key added to the struct appears in it by make docs),
// each described by its field's doc comment, and its examples load.
func TestConfigReference(t *testing.T) {
	keys, missing, err := configKeys()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("%s: its field in check has no doc comment: the reference needs one", m)
	}
	page, err := os.ReadFile(filepath.Join(referenceDir, "drydock.yaml.md"))
	if err != nil {
		t.Fatalf("%v: run make docs", err)
	}
	var paths []string
	for _, k := range keys {
		paths = append(paths, k.path)
		if !strings.Contains(string(page), "## `"+k.path+"`") {
			t.Errorf("docs/reference/drydock.yaml.md has no section for %s: run make docs", k.path)
		}
	}
	for _, p := range paths {
		if _, ok := configKeyExtras[p]; !ok {
			t.Errorf("%s: configKeyExtras has no default, commands and example for it", p)
		}
	}
	for p := range configKeyExtras {
		if !slices.Contains(paths, p) {
			t.Errorf("configKeyExtras[%q]: drydock.yaml has no such key", p)
		}
	}
	if !slices.Contains(paths, "suites[].addons[].set") || !slices.Contains(paths, "limits.memory") {
		t.Errorf("nested keys missing: %q", paths)
	}
	// Every suite-level example, in a suite of its own, loads (paths it
	// names exist), or fails on a path only.
	dir := t.TempDir()
	t.Chdir(dir)
	for _, k := range keys {
		rest, ok := strings.CutPrefix(k.path, "suites[].")
		if !ok || strings.Contains(rest, ".") || rest == "name" || rest == "inputs" {
			continue
		}
		cfg := "suites:\n  - name: s\n    inputs: [apps]\n" + indentLines(k.example, "    ") + "\n"
		if err := os.WriteFile("drydock.yaml", []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := check.LoadConfig("drydock.yaml"); err != nil && !strings.Contains(err.Error(), "no such file or directory") {
			t.Errorf("example of %s does not load: %v\n%s", k.path, err, cfg)
		}
	}
}

func indentLines(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}
