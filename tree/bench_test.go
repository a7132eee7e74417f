package tree

import (
	"fmt"
	"path/filepath"
	"testing"
)

// benchTree is n files of a render's shape (about 1 KiB each) over 10
// namespaces; tag varies their content.
func benchTree(n int, tag string) Tree {
	t := Tree{}
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-%d\n  namespace: ns-%d\nspec:\n  template:\n    spec:\n      containers:\n      - image: nginx:%s\n        name: app\n", i, i%10, tag)
		for len(body) < 1024 {
			body += "# padding to a typical object's size\n"
		}
		t[fmt.Sprintf("local/ns-%d/deployment.apps_app-%d.yaml", i%10, i)] = []byte(body)
	}
	return t
}

// BenchmarkUpdateFresh: Update of 2,000 files into a new directory
// (render --output-dir's first run).
func BenchmarkUpdateFresh(b *testing.B) {
	t := benchTree(2000, "1")
	base := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Update(filepath.Join(base, fmt.Sprint(i)), t, UpdateOptions{Prune: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdateTenth: Update of 2,000 files where a tenth changed (a
// re-render after an edit).
func BenchmarkUpdateTenth(b *testing.B) {
	a, c, changed := benchTree(2000, "1"), benchTree(2000, "1"), benchTree(2000, "2")
	for p := range benchTree(200, "2") {
		c[p] = changed[p]
	}
	dir := b.TempDir()
	if _, err := Update(dir, a, UpdateOptions{Prune: true}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next := a
		if i%2 == 0 {
			next = c
		}
		if _, err := Update(dir, next, UpdateOptions{Prune: true}); err != nil {
			b.Fatal(err)
		}
	}
}
