package golden

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestUpdatePruneKeepsUnowned(t *testing.T) {
	dir := t.TempDir()
	writeDir(t, dir, owning(map[string]string{
		cmPath:                   cmBlue,
		"c1/ns/secret_old.yaml":  "old\n",
		"c1/ns/secret_mine.yaml": "the user's\n",
		"mine.yaml":              "the user's\n",
	}, cmPath, "c1/ns/secret_old.yaml"))
	rep, err := Update(dir, tree(map[string]string{cmPath: cmGreen}), UpdateOptions{Prune: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c1/ns/secret_old.yaml"}, rep.Removed); diff != "" {
		t.Errorf("Removed (-want +got):\n%s", diff)
	}
	want := owning(map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmGreen,
		"c1/ns/secret_mine.yaml": "the user's\n", "mine.yaml": "the user's\n"}, cmPath)
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestUpdateKeepsDirectoryMode(t *testing.T) {
	parent := t.TempDir()
	for _, tt := range []struct {
		name string
		mode os.FileMode // 0: the directory does not exist yet
		want os.FileMode
	}{{"new", 0, 0o755}, {"existing 0750", 0o750, 0o750}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(parent, tt.name)
			if tt.mode != 0 {
				if err := os.Mkdir(dir, tt.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, tt.mode); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Update(dir, tree(map[string]string{cmPath: cmBlue}), UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.want {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tt.want)
			}
		})
	}
}

func TestUpdateCleansLeftovers(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "golden")
	writeDir(t, dir, owning(map[string]string{cmPath: cmBlue}, cmPath))
	writeDir(t, parent, map[string]string{
		".golden.drydock-new-1234/c1/ns/configmap_app.yaml": "half\n",
		".golden.drydock-old-5678/c1/ns/configmap_app.yaml": "old\n",
		".golden.drydock-journal":                           "new .golden.drydock-new-1234\n", // incomplete
		".other.drydock-new-1/x.yaml":                       "another directory's: kept\n",
	})
	wantLeft := []string{".golden.drydock-journal", ".golden.drydock-new-1234", ".golden.drydock-old-5678"}
	rep, err := Compare(dir, tree(map[string]string{cmPath: cmBlue}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantLeft, rep.Leftovers); diff != "" {
		t.Errorf("Compare Leftovers (-want +got):\n%s", diff)
	}
	if !strings.Contains(rep.String(), "leftover of an interrupted update: .golden.drydock-new-1234") {
		t.Errorf("report does not mention the leftovers:\n%s", rep)
	}
	rep, err = Update(dir, tree(map[string]string{cmPath: cmBlue}), UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantLeft, rep.Leftovers); diff != "" {
		t.Errorf("Update Leftovers (-want +got):\n%s", diff)
	}
	want := map[string]string{".other.drydock-new-1/": "", ".other.drydock-new-1/x.yaml": "another directory's: kept\n",
		"golden/": "", "golden/c1/": "", "golden/c1/ns/": "", "golden/" + cmPath: cmBlue,
		"golden/" + OwnershipFile: string(encodeOwnership([]string{cmPath}))}
	if diff := cmp.Diff(want, readAll(t, parent)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestJournaledSwap takes the two-rename path (systems without an atomic
// exchange) and completes a swap interrupted between its renames.
func TestJournaledSwap(t *testing.T) {
	defer func(e func(a, b string) error) { exchange = e }(exchange)
	exchange = func(a, b string) error { return errors.ErrUnsupported }
	parent := t.TempDir()
	dir := filepath.Join(parent, "golden")
	writeDir(t, dir, owning(map[string]string{cmPath: cmBlue}, cmPath))
	if _, err := Update(dir, tree(map[string]string{cmPath: cmGreen}), UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"golden/": "", "golden/c1/": "", "golden/c1/ns/": "", "golden/" + cmPath: cmGreen,
		"golden/" + OwnershipFile: string(encodeOwnership([]string{cmPath}))}
	if diff := cmp.Diff(want, readAll(t, parent)); diff != "" {
		t.Errorf("after a journaled swap (-want +got):\n%s", diff)
	}

	// Interrupted after the first rename: the old tree moved away, the new
	// one not yet in place. The next Update completes the swap.
	if err := os.Rename(dir, filepath.Join(parent, ".golden.drydock-old-1")); err != nil {
		t.Fatal(err)
	}
	writeDir(t, parent, map[string]string{
		".golden.drydock-new-2/" + cmPath:        cmBlue,
		".golden.drydock-new-2/" + OwnershipFile: string(encodeOwnership([]string{cmPath})),
		".golden.drydock-journal":                "new .golden.drydock-new-2\nold .golden.drydock-old-1\n",
	})
	rep, err := Update(dir, tree(map[string]string{cmPath: cmBlue}), UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Errorf("the completed swap should hold the new tree:\n%s", rep)
	}
	want["golden/"+cmPath] = cmBlue
	if diff := cmp.Diff(want, readAll(t, parent)); diff != "" {
		t.Errorf("after completing the journal (-want +got):\n%s", diff)
	}
}

func TestUpdateWaitsForLock(t *testing.T) {
	defer func(w time.Duration) { LockWait = w }(LockWait)
	LockWait = 50 * time.Millisecond
	dir := t.TempDir()
	target, err := realTarget(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := lock(target)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Update(dir, tree(map[string]string{cmPath: cmBlue}), UpdateOptions{})
	if err == nil || !strings.Contains(err.Error(), "another drydock is updating it") {
		t.Fatalf("Update while locked: error %v, want one saying another drydock is updating it", err)
	}
	unlock()
	if _, err := Update(dir, tree(map[string]string{cmPath: cmBlue}), UpdateOptions{}); err != nil {
		t.Fatalf("Update after the lock was released: %v", err)
	}
}

// The two trees the kill test alternates between: different files,
// directories and contents, so a mix of them is visible.
var (
	treeA = map[string]string{cmPath: cmBlue, nsPath: ns, "c2/ns/secret_a.yaml": "a\n"}
	treeB = map[string]string{cmPath: cmGreen, "c2/ns/secret_b.yaml": "b\n", "c3/x/configmap_b.yaml": "b\n"}
)

// The trees the Write kill test alternates between: the same files (Write
// never deletes), other contents.
var (
	writeA = map[string]string{cmPath: cmBlue, nsPath: ns, "NOTES.txt": "a\n"}
	writeB = map[string]string{cmPath: cmGreen, nsPath: ns + "# b\n", "NOTES.txt": "b\n"}
)

// TestKillChild is the child of TestUpdateKilled: it updates the golden
// directory between treeA and treeB until it is killed.
func TestKillChild(t *testing.T) {
	dir := os.Getenv("DRYDOCK_GOLDEN_KILL_CHILD")
	if dir == "" {
		t.Skip("run by TestUpdateKilled")
	}
	if os.Getenv("DRYDOCK_GOLDEN_JOURNAL") != "" {
		exchange = func(a, b string) error { return errors.ErrUnsupported }
	}
	if os.Getenv("DRYDOCK_GOLDEN_WRITE") != "" {
		for i := 0; ; i++ {
			next := writeA
			if i%2 == 0 {
				next = writeB
			}
			if err := Write(dir, tree(next)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := 0; ; i++ {
		next := treeA
		if i%2 == 0 {
			next = treeB
		}
		if _, err := Update(dir, tree(next), UpdateOptions{Prune: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUpdateKilled kills an updating process at random moments and checks
// that the golden directory always holds one whole tree: right after the
// kill with the atomic exchange, after the next Update's recovery with
// the journal.
func TestUpdateKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, journal := range []bool{false, true} {
		t.Run(fmt.Sprintf("journal=%t", journal), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "golden")
			if _, err := Update(dir, tree(treeA), UpdateOptions{Prune: true}); err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for round := 0; round < 40; round++ {
				killDuringUpdates(t, dir, journal, time.Duration(rand.IntN(60))*time.Millisecond)
				if journal {
					target, _ := realTarget(dir)
					if _, err := recoverLeftovers(target); err != nil {
						t.Fatal(err)
					}
				}
				seen[wholeTree(t, dir)]++
			}
			t.Logf("trees seen after kills: %v", seen)
		})
	}
}

func killDuringUpdates(t *testing.T, dir string, journal bool, after time.Duration, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), "DRYDOCK_GOLDEN_KILL_CHILD="+dir), env...)
	if journal {
		cmd.Env = append(cmd.Env, "DRYDOCK_GOLDEN_JOURNAL=1")
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(after)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

// wholeTree names the tree dir holds ("A" or "B"), failing the test on a
// mix; its OwnershipFile must match.
func wholeTree(t *testing.T, dir string) string {
	t.Helper()
	g, err := listGolden(dir)
	if err != nil || g == nil {
		t.Fatalf("golden directory after a kill: %v (missing: %t)", err, g == nil)
	}
	got := map[string]string{}
	for p := range g.files {
		data, err := os.ReadFile(filepath.Join(g.root, p))
		if err != nil {
			t.Fatal(err)
		}
		got[p] = string(data)
	}
	for name, want := range map[string]map[string]string{"A": treeA, "B": treeB} {
		if cmp.Diff(want, got, cmpopts.EquateEmpty()) == "" {
			if string(g.ownershipData) != string(encodeOwnership(tree(want).Paths())) {
				t.Fatalf("tree %s with a stale ownership file:\n%s", name, g.ownershipData)
			}
			return name
		}
	}
	t.Fatalf("a kill left a mixed tree: %v", got)
	return ""
}

// TestWriteKilled: render --output-dir (Write) is atomic too: after a kill
// the directory holds one whole tree.
func TestWriteKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, tree(writeA)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for round := 0; round < 30; round++ {
		killDuringUpdates(t, dir, false, time.Duration(rand.IntN(60))*time.Millisecond, "DRYDOCK_GOLDEN_WRITE=1")
		got := readAll(t, dir)
		switch {
		case got["NOTES.txt"] == "a\n" && got[cmPath] == cmBlue && got[nsPath] == ns:
			seen["A"]++
		case got["NOTES.txt"] == "b\n" && got[cmPath] == cmGreen && got[nsPath] == ns+"# b\n":
			seen["B"]++
		default:
			t.Fatalf("a kill left a mixed output directory: %v", got)
		}
	}
	t.Logf("trees seen after kills: %v", seen)
}

func TestWriteRefusesRepository(t *testing.T) {
	dir := t.TempDir()
	writeDir(t, dir, map[string]string{".git/HEAD": "ref: main\n", "main.go": "package main\n"})
	before := readAll(t, dir)
	if err := Write(dir, tree(map[string]string{cmPath: cmBlue})); !errors.Is(err, ErrInvalidPath) {
		t.Fatalf("Write into a repository root: error %v, want ErrInvalidPath", err)
	}
	if _, err := Update(dir, tree(map[string]string{cmPath: cmBlue}), UpdateOptions{Prune: true}); !errors.Is(err, ErrInvalidPath) {
		t.Fatalf("Update of a repository root: error %v, want ErrInvalidPath", err)
	}
	if diff := cmp.Diff(before, readAll(t, dir)); diff != "" {
		t.Errorf("the repository changed (-before +after):\n%s", diff)
	}
}
