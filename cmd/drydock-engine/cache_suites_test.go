package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheColdWarmSuiteConfigs: drydock test of one set of applications
// under ten suite configurations (golden, strict, observed objects at an
// application's key, rules, combined rules, validate: false, revision
// hashes, ignored paths, per-cluster Kubernetes versions), in the text,
// json, junit and sarif formats, reports the same without the render
// cache, into it and from it (the unchanged objects reach the checks
// undecoded): after golden files are deleted, renamed or edited with
// their size and mtime kept, after a drift, with --update, and with two
// applications writing one object.
func TestCacheColdWarmSuiteConfigs(t *testing.T) {
	app := func(name, ns, comp, image string, extra string) string {
		return fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: %s
  namespace: %s
spec:
  components:
    - name: %s
      type: webservice
      properties:
        image: %s
        ports:
          - port: 8080
            expose: true
      traits:
        - type: scaler
          properties:
            replicas: 2
%s`, name, ns, comp, image, extra)
	}
	const policy = `package main
import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	input.spec.replicas > 5
	msg := sprintf("Deployment %s has %d replicas", [input.metadata.name, input.spec.replicas])
}
`
	observed := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-obs
  namespace: team-1
  resourceVersion: "12"
spec:
  replicas: 1
`
	clusters := `apiVersion: cluster.core.oam.dev/v1alpha1
kind: ClusterGateway
metadata:
  name: local
spec:
  kubernetesVersion: "1.27"
`
	clusters = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: c1
status:
  kubernetesVersion: v1.24.0
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: c2
status:
  kubernetesVersion: v1.31.0
`
	for _, keys := range []string{
		"golden: golden",
		"golden: golden, strict: true",
		"golden: golden, observed: [observed.yaml]",
		"golden: golden, policies: [policy]",
		"golden: golden, policies: [policy], combine: true",
		"policies: [policy]",
		"validate: false, golden: golden",
		"golden: golden, compareRevisionHash: true",
		"golden: golden, ignore: [{path: spec.template.spec.containers}]",
		"golden: golden, clusters: [clusters.yaml], policies: [policy]",
	} {
		for _, format := range []string{"text", "json", "junit", "sarif", "dup"} {
			t.Run(keys+" "+format, func(t *testing.T) {
				dup := format == "dup"
				if dup {
					format = "text"
				}
				dir := t.TempDir()
				write := func(name, data string) {
					p := filepath.Join(dir, name)
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				for i := range 6 {
					write(fmt.Sprintf("apps/app-%d.yaml", i), app(fmt.Sprintf("app-%d", i), fmt.Sprintf("team-%d", i%3), fmt.Sprintf("web-%d", i), "nginx:1", ""))
				}
				// two apps write one Deployment
				if dup {
					write("apps/dup-a.yaml", app("dup-a", "team-0", "web-dup", "nginx:1", ""))
					write("apps/dup-b.yaml", app("dup-b", "team-0", "web-dup", "nginx:2", ""))
				}
				// an observed object at an app's key
				write("apps/obs.yaml", app("obs", "team-1", "web-obs", "nginx:1", ""))
				// a label the API server refuses
				write("apps/lab.yaml", app("lab", "team-2", "web-lab", "nginx:1", "        - type: labels\n          properties:\n            \"bad key!\": \"v\"\n"))
				write("apps/env.yaml", app("envx", "team-2", "web-env", "nginx:1", "        - type: annotations\n          properties:\n            a: \"b\"\n"))
				write("policy/main.rego", policy)
				write("observed.yaml", observed)
				write("clusters.yaml", clusters)
				if strings.Contains(keys, "clusters") {
					write("apps/multi.yaml", app("multi", "team-2", "web-multi", "nginx:1", "        - type: labels\n          properties:\n            \"bad key!\": \"v\"\n  policies:\n    - name: t\n      type: topology\n      properties:\n        clusters: [c1, c2]\n"))
				}
				write("drydock.yaml", "suites:\n  - {name: fleet, inputs: [apps], "+keys+"}\n")
				t.Chdir(dir)
				var stdout, stderr bytes.Buffer
				code := run([]string{"test", "--update", "--no-cache"}, strings.NewReader(""), &stdout, &stderr)
				t.Logf("update exit %d\n%s%s", code, stdout.String(), stderr.String())
				if code > 1 && !strings.Contains(stderr.String(), "conflicting objects") { // the configurations with conflicts fail by design
					t.Fatalf("test --update: exit %d, so the runs below compare without golden files", code)
				}
				cacheDir := t.TempDir()
				args := []string{"test", "--format", format}
				renderThrice(t, dir, cacheDir, args)
				g := filepath.Join(dir, "golden/local/team-0")
				os.Remove(filepath.Join(g, "service_web-0.yaml"))
				os.Rename(filepath.Join(g, "deployment.apps_web-3.yaml"), filepath.Join(g, "deployment.apps_web-33.yaml"))
				if b, err := os.ReadFile(filepath.Join(g, "deployment.apps_web-0.yaml")); err == nil {
					fi, _ := os.Stat(filepath.Join(g, "deployment.apps_web-0.yaml"))
					b = bytes.Replace(b, []byte("nginx:1"), []byte("nginx:7"), 1)
					os.WriteFile(filepath.Join(g, "deployment.apps_web-0.yaml"), b, 0o644)
					os.Chtimes(filepath.Join(g, "deployment.apps_web-0.yaml"), fi.ModTime(), fi.ModTime())
				}
				renderThrice(t, dir, cacheDir, args)
				write("apps/app-4.yaml", app("app-4", "team-1", "web-4", "nginx:drift", ""))
				renderThrice(t, dir, cacheDir, args)
				// --update warm vs without cache, in two copies
				write("apps/app-5.yaml", app("app-5", "team-2", "web-5", "nginx:drift5", ""))
				os.RemoveAll(filepath.Join(dir, "golden/local/team-0"))
				dir2 := t.TempDir()
				if err := os.CopyFS(dir2, os.DirFS(dir)); err != nil {
					t.Fatal(err)
				}
				one := func(d string, extra ...string) string {
					t.Chdir(d)
					var stdout, stderr bytes.Buffer
					code := run(append(append([]string(nil), args...), extra...), strings.NewReader(""), &stdout, &stderr)
					return fmt.Sprintf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
				}
				a := one(dir, "--update", "--no-cache")
				b := one(dir2, "--update", "--cache", cacheDir)
				if a != b {
					t.Errorf("update differs:\n%s\n---\n%s", a, b)
				}
				tree := func(d string) string {
					var sb strings.Builder
					filepath.WalkDir(filepath.Join(d, "golden"), func(p string, de os.DirEntry, err error) error {
						if err == nil && !de.IsDir() {
							b, _ := os.ReadFile(p)
							rel, _ := filepath.Rel(d, p)
							fmt.Fprintf(&sb, "%s\n%s\n", rel, b)
						}
						return nil
					})
					return sb.String()
				}
				if tree(dir) != tree(dir2) {
					t.Errorf("golden trees differ after update")
				}
				renderThrice(t, dir2, cacheDir, args)
			})
		}
	}
}

// TestCacheColdWarmExampleSuites: drydock test of the examples' suites (gitops, vela-karmada
// with clustersFromInputs, suites sharing inputs, rules) and of shards
// (--shard 1/2, 2/2) reports the same without the render cache, into it
// and from it (renderThrice).
func TestCacheColdWarmExampleSuites(t *testing.T) {
	examples, _ := filepath.Abs("../../examples")
	for _, c := range []struct {
		name, cfg string
		args      []string
	}{
		{"gitops", "", []string{"test"}},
		{"gitops json", "", []string{"test", "--format", "json"}},
		{"gitops shard1", "", []string{"test", "--shard", "1/2", "--format", "json"}},
		{"gitops shard2", "", []string{"test", "--shard", "2/2", "--format", "json"}},
		{"karmada", "suites:\n  - {name: k, inputs: [vela-karmada], clustersFromInputs: true, golden: golden/k, policies: [p]}\n  - {name: k2, inputs: [vela-karmada], clustersFromInputs: true, golden: golden/k2}\n  - {name: k3, inputs: [vela-karmada, first-vela-app.yaml], clusters: [vela-karmada/clusters.yaml], golden: golden/k3}\n", []string{"test"}},
		{"karmada shard", "suites:\n  - {name: k, inputs: [vela-karmada], clustersFromInputs: true, golden: golden/k}\n  - {name: k3, inputs: [vela-karmada, first-vela-app.yaml], clusters: [vela-karmada/clusters.yaml], golden: golden/k3}\n", []string{"test", "--shard", "1/2", "--format", "json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(examples)); err != nil {
				t.Fatal(err)
			}
			sub := dir
			if c.cfg == "" {
				sub = filepath.Join(dir, "gitops")
			} else {
				os.WriteFile(filepath.Join(dir, "drydock.yaml"), []byte(c.cfg), 0o644)
				os.MkdirAll(filepath.Join(dir, "p"), 0o755)
				os.WriteFile(filepath.Join(dir, "p/main.rego"), []byte("package main\nimport rego.v1\nwarn contains msg if {\n input.kind == \"Deployment\"\n msg := input.metadata.name\n}\n"), 0o644)
				t.Chdir(dir)
				var stdout, stderr bytes.Buffer
				code := run([]string{"test", "--update", "--no-cache"}, strings.NewReader(""), &stdout, &stderr)
				t.Logf("update exit %d\n%s%s", code, stdout.String(), stderr.String())
				if code > 1 {
					t.Fatalf("test --update: exit %d, so the runs below compare without golden files", code)
				}
			}
			cacheDir := t.TempDir()
			renderThrice(t, sub, cacheDir, c.args)
			renderThrice(t, sub, cacheDir, c.args)
		})
	}
}
