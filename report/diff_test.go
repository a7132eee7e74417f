package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/reconcile"
)

// hostilePlan has a change and a kept object whose every field an input
// controls is markup, a code span breaker, a table pipe or an escape
// sequence.
func hostilePlan() *reconcile.Plan {
	key := manifest.Key{Kind: "<script>K`|", Namespace: "ns<b>|", Name: "web`</code><img src=x>\x1b]0;t\x07"}
	return &reconcile.Plan{
		Changes: []reconcile.Change{{Cluster: "local|`x`", Key: key, APIVersion: "v1", Path: "local/ns/k_web.yaml", Action: reconcile.Update,
			Reason: "component <b>web</b> | *bold* \x1b[31m", Base: []byte("a: 1\n"), Head: []byte("a: \"```\\e[2J\"\n")}},
		Kept: []reconcile.Kept{{Cluster: "c", Key: key, Reason: "shared <i>"}},
	}
}

func TestDiffMarkdownHostile(t *testing.T) {
	var got bytes.Buffer
	if err := DiffMarkdown(&got, hostilePlan(), "main`<x>", DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "### drydock diff\n\ncompared with <code>main&#96;&#60;x&#62;</code>: 0 to create, 1 to update, 0 to delete, 0 unchanged, 1 kept as they are by the controllers.\n" +
		"\n| cluster | create | update | delete | bookkeeping only |\n|---|---|---|---|---|\n| <code>local&#124;&#96;x&#96;</code> | 0 | 1 | 0 | 0 |\n" +
		"\n| application | create | update | delete | bookkeeping only |\n|---|---|---|---|---|\n| (no application) | 0 | 1 | 0 | 0 |\n" +
		"\n#### cluster <code>local&#124;&#96;x&#96;</code>\n\n" +
		"<details><summary>update &#60;script&#62;K&#96;&#124; <code>web&#96;&#60;/code&#62;&#60;img src=x&#62;&#92;x1b&#93;0;t&#92;x07</code> in ns&#60;b&#62;&#124;: " +
		"component &#60;b&#62;web&#60;/b&#62; &#124; &#42;bold&#42; &#92;x1b&#91;31m</summary>\n\n" +
		"````diff\n--- base/local/ns/k_web.yaml\n+++ head/local/ns/k_web.yaml\n@@ -1 +1 @@\n-a: 1\n+a: \"```\\e[2J\"\n````\n\n</details>\n" +
		"\n#### kept as they are by the controllers\n\n" +
		"- <code>c</code> &#60;script&#62;K&#96;&#124; <code>web&#96;&#60;/code&#62;&#60;img src=x&#62;&#92;x1b&#93;0;t&#92;x07</code> in ns&#60;b&#62;&#124;: shared &#60;i&#62;\n"
	if diff := cmp.Diff(want, got.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDiffTextHostile: the text and GitHub formats show the escape
// sequences as text; JSON stays valid.
func TestDiffTextHostile(t *testing.T) {
	for _, name := range DiffFormats {
		write, _ := LookupDiff(name)
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			if err := write(&out, hostilePlan(), "main", DiffOptions{}); err != nil {
				t.Fatal(err)
			}
			if i := strings.IndexAny(out.String(), "\x1b\x07\r"); i >= 0 {
				t.Errorf("control byte %q at %d:\n%s", out.String()[i], i, out.String())
			}
			if name == "json" && !json.Valid(out.Bytes()) {
				t.Errorf("not valid JSON:\n%s", out.String())
			}
		})
	}
	var out bytes.Buffer
	if err := DiffText(&out, hostilePlan(), "main", DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := `    ~ update <script>K` + "`|" + ` web` + "`" + `</code><img src=x>\x1b]0;t\x07: component <b>web</b> | *bold* \x1b[31m` + "\n"; !strings.Contains(out.String(), want) {
		t.Errorf("text diff lacks %q:\n%s", want, out.String())
	}
}

// fixedPlan has every action in two clusters, a cluster-scoped object,
// an update with its diff and a kept object.
func fixedPlan() *reconcile.Plan {
	web := manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	return &reconcile.Plan{
		Changes: []reconcile.Change{
			{Cluster: "local", Key: manifest.Key{Kind: "Namespace", Name: "shop"}, APIVersion: "v1", Path: "local/_cluster/namespace_shop.yaml",
				Action: reconcile.Create, Reason: "application shop/shop component ns", App: "shop/shop", Head: []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n")},
			{Cluster: "local", Key: manifest.Key{Kind: "ConfigMap", Namespace: "shop", Name: "cache"}, APIVersion: "v1", Path: "local/shop/configmap_cache.yaml",
				Action: reconcile.Delete, Reason: "application shop/shop no longer renders it (garbage-collected)", App: "shop/shop", Base: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cache\n")},
			{Cluster: "local", Key: web, APIVersion: "apps/v1", Path: "local/shop/deployment.apps_web.yaml", Action: reconcile.Update,
				Reason: "application shop/shop component web", App: "shop/shop", Base: []byte("kind: Deployment\nspec:\n  replicas: 1\n"), Head: []byte("kind: Deployment\nspec:\n  replicas: 3\n")},
			{Cluster: "member1", Key: web, APIVersion: "apps/v1", Path: "member1/shop/deployment.apps_web.yaml", Action: reconcile.Create,
				Reason: "template Deployment shop/web; propagation policy shop/web", Head: []byte("kind: Deployment\nspec:\n  replicas: 2\n")},
		},
		Kept:      []reconcile.Kept{{Cluster: "member2", Key: web, APIVersion: "apps/v1", Path: "member2/shop/deployment.apps_web.yaml", Reason: "its policy suspends dispatching"}},
		Unchanged: 5,
	}
}

// TestDiffFormats writes the fixed plan in every diff format and compares
// it with testdata/diff-<format>.golden (go test ./report -update rewrites
// them); an empty plan too.
func TestDiffFormats(t *testing.T) {
	for _, name := range DiffFormats {
		write, ok := LookupDiff(name)
		if !ok {
			t.Fatalf("LookupDiff(%q) found nothing", name)
		}
		for plan, p := range map[string]*reconcile.Plan{"": fixedPlan(), "-empty": {}} {
			t.Run(name+plan, func(t *testing.T) {
				var got bytes.Buffer
				if err := write(&got, p, "HEAD~1", DiffOptions{}); err != nil {
					t.Fatal(err)
				}
				compareGolden(t, filepath.Join("testdata", "diff-"+name+plan+".golden"), got.Bytes())
			})
		}
	}
	if _, ok := LookupDiff("yaml"); ok {
		t.Error("LookupDiff(yaml) found a format")
	}
}

// TestDiffWriteErrors: every diff format reports a failed write,
// wherever it happens.
func TestDiffWriteErrors(t *testing.T) {
	for _, name := range DiffFormats {
		write, _ := LookupDiff(name)
		for _, n := range []int{0, 40, 400} {
			if err := write(&failingWriter{n: n}, fixedPlan(), "main", DiffOptions{}); err == nil {
				t.Errorf("%s: no error from a writer failing after %d bytes", name, n)
			}
		}
	}
}
