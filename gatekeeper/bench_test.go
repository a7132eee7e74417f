package gatekeeper

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// benchConstraints are 8 constraints of the requiredlabels template, each
// matching a different share of the objects.
var benchConstraints = []string{
	``,
	`match: {kinds: [{apiGroups: ["apps"], kinds: ["Deployment"]}]}`,
	`match: {kinds: [{apiGroups: [""]}]}`,
	`match: {namespaces: ["team-*"]}`,
	`match: {excludedNamespaces: ["*-3"]}`,
	`match: {labelSelector: {matchLabels: {app: web}}}`,
	`match: {namespaceSelector: {matchExpressions: [{key: env, operator: In, values: [prod]}]}}`,
	`match: {name: "web-*", scope: Namespaced}`,
}

// BenchmarkReview reviews 2,000 objects (in 10 namespaces) against 8
// constraints of a Rego template.
func BenchmarkReview(b *testing.B) { benchReview(b, "testdata/requiredlabels/template.yaml") }

// BenchmarkReviewCEL is BenchmarkReview with gatekeeper-library's
// requiredlabels, evaluated with its CEL.
func BenchmarkReviewCEL(b *testing.B) { benchReview(b, "testdata/celrequiredlabels/template.yaml") }

func benchReview(b *testing.B, template string) {
	dir := b.TempDir()
	tmpl, err := os.ReadFile(template)
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.Write(tmpl)
	for i, m := range benchConstraints {
		fmt.Fprintf(&sb, "---\napiVersion: constraints.gatekeeper.sh/v1beta1\nkind: K8sRequiredLabels\nmetadata: {name: c%d}\nspec:\n  %s\n  parameters: {labels: [{key: owner, allowedRegex: \"^[a-z]+$\"}]}\n", i, m)
	}
	if err := os.WriteFile(filepath.Join(dir, "policy.yaml"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	set, err := Load([]string{dir}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var objs []*manifest.Object
	for i := range 10 {
		env := "dev"
		if i%2 == 0 {
			env = "prod"
		}
		objs = append(objs, manifest.New(map[string]any{
			"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]any{"name": fmt.Sprintf("team-%d", i), "labels": map[string]any{"env": env}},
		}))
	}
	for i := len(objs); i < 2000; i++ {
		labels := map[string]any{"app": "web"}
		if i%3 == 0 {
			labels["owner"] = "alice"
		}
		apiVersion, kind := "apps/v1", "Deployment"
		if i%2 == 0 {
			apiVersion, kind = "v1", "ConfigMap"
		}
		objs = append(objs, manifest.New(map[string]any{
			"apiVersion": apiVersion, "kind": kind,
			"metadata": map[string]any{"name": fmt.Sprintf("web-%d", i), "namespace": fmt.Sprintf("team-%d", i%10), "labels": labels},
			"spec":     map[string]any{"replicas": int64(i % 5), "template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}},
		}))
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := set.Review(ctx, objs); err != nil {
			b.Fatal(err)
		}
	}
}
