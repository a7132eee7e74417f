package gitrev

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
)

// linkRepo commits files (as commit does) to a new repository and
// returns its HEAD.
func linkRepo(t testing.TB, files map[string]string) *FS {
	t.Helper()
	root := t.TempDir()
	repo, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, repo, root, files)
	r, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := r.FS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// chain adds to files a chain of n links under dir: l1 -> l2 -> ... ->
// ln -> t.yaml. Opening dir/l1 follows n links.
func chain(files map[string]string, dir string, n int) {
	files[dir+"/t.yaml"] = "t: 1\n"
	for i := 1; i < n; i++ {
		files[fmt.Sprintf("%s/l%d", dir, i)] = fmt.Sprintf("->l%d", i+1)
	}
	files[fmt.Sprintf("%s/l%d", dir, n)] = "->t.yaml"
}

// fanOut adds to files, under dir, links a1..a{depth} where a0 -> . and
// each a{k} -> a{k-1}/a{k-1}/... (width times), and dir/x.yaml. Opening
// dir/a{depth}/x.yaml follows 1 + width + width² + ... links: a resolver
// that does not count across the whole resolution takes width^depth
// steps.
func fanOut(files map[string]string, dir string, width, depth int) {
	files[dir+"/x.yaml"] = "x: 1\n"
	files[dir+"/a0"] = "->."
	for k := 1; k <= depth; k++ {
		files[fmt.Sprintf("%s/a%d", dir, k)] = "->" + strings.Repeat(fmt.Sprintf("a%d/", k-1), width-1) + fmt.Sprintf("a%d", k-1)
	}
}

func TestLinkResolutionBound(t *testing.T) {
	files := map[string]string{}
	chain(files, "c40", 40)
	chain(files, "c41", 41)
	fanOut(files, "fan2", 2, 5)   // a4: 1+2+4+8+16 = 31 links, resolves; a5: 63
	fanOut(files, "fan10", 10, 5) // 111,111 links: refused at the 41st
	fsys := linkRepo(t, files)
	for _, name := range []string{"c40/l1", "fan2/a4/x.yaml"} {
		if _, err := fs.ReadFile(fsys, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range []string{"c41/l1", "fan10/a5/x.yaml", "fan2/a5/x.yaml"} {
		start := time.Now()
		_, err := fs.ReadFile(fsys, name)
		if !errors.Is(err, syscall.ELOOP) || !strings.Contains(err.Error(), "too many levels of symbolic links") {
			t.Errorf("%s: %v, want ELOOP", name, err)
		}
		// Bounded by 40 links, not exponential (was minutes).
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: %v to refuse", name, d)
		}
	}
}

// BenchmarkResolve40Links opens a file through a chain of 40 links, the
// most a resolution follows.
func BenchmarkResolve40Links(b *testing.B) {
	files := map[string]string{}
	chain(files, "c40", 40)
	fsys := linkRepo(b, files)
	for b.Loop() {
		if _, err := fs.Stat(fsys, "c40/l1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolve40LinksCold is BenchmarkResolve40Links on a new FS
// each time: no link target memoised yet.
func BenchmarkResolve40LinksCold(b *testing.B) {
	files := map[string]string{}
	chain(files, "c40", 40)
	fsys := linkRepo(b, files)
	for b.Loop() {
		cold := &FS{repo: fsys.repo, tree: fsys.tree, when: fsys.when}
		if _, err := fs.Stat(cold, "c40/l1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveFanOut opens a file through links that fan out
// (a{k} -> a{k-1}/a{k-1}/a{k-1}/a{k-1}, 4 levels: 341 links followed
// without a shared count).
func BenchmarkResolveFanOut(b *testing.B) {
	files := map[string]string{}
	fanOut(files, "fan", 4, 4)
	fsys := linkRepo(b, files)
	for b.Loop() {
		fs.Stat(fsys, "fan/a4/x.yaml")
	}
}
