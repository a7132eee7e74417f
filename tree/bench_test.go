package tree

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
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

// BenchmarkList: a listing of a directory of 20,000 owned files over 11
// directories (a warm comparison's golden tree), walked (List) or taken
// again from its record (ListAgain, the structure unchanged).
func BenchmarkList(b *testing.B) {
	files := benchTree(20000, "1")
	dir := b.TempDir()
	if _, err := Update(dir, files, UpdateOptions{}); err != nil {
		b.Fatal(err)
	}
	known := Known{}
	for p := range files {
		known[p] = KnownFile{}
	}
	given := GivenPaths{
		Has: func(p string) bool { _, ok := known[p]; return ok },
		All: func(yield func(p string) bool) {
			for p := range known {
				if !yield(p) {
					return
				}
			}
		},
	}
	since := time.Now().Add(time.Hour) // the files are not racy
	l, err := ListAgain(dir, since, nil, known, given)
	if err != nil {
		b.Fatal(err)
	}
	record := l.Record(known)
	b.Run("walked", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ListAgain(dir, since, nil, known, given); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("again", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			l, err := ListAgain(dir, since, record, known, given)
			if err != nil || !l.TakenAgain() {
				b.Fatal("not taken again", err)
			}
		}
	})
}
