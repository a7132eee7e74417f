package tree

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
	rep, err := Update(dir, treeOf(map[string]string{cmPath: cmGreen}), UpdateOptions{Prune: true})
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

// TestUnownedDirectory: a directory without an OwnershipFile owns
// nothing, whatever its paths look like. Its files are neither rewritten
// nor pruned, until the tree is adopted explicitly.
func TestUnownedDirectory(t *testing.T) {
	hand := map[string]string{
		cmPath:                  cmBlue, // drydock's shape, the user's file
		"c1/ns/secret_old.yaml": "hand-written\n",
	}
	dir := t.TempDir()
	writeDir(t, dir, hand)
	before := readAll(t, dir)

	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if removed := l.Removed(func(p string) bool { return p == cmPath }); len(removed) != 0 || !l.Unowned() {
		t.Errorf("List of an unowned directory: Removed %v, Unowned %t", removed, l.Unowned())
	}
	l.Close()
	for _, opts := range []UpdateOptions{{}, {Prune: true}} {
		if _, err := Update(dir, treeOf(map[string]string{cmPath: cmGreen}), opts); !errors.Is(err, ErrNotOwned) {
			t.Fatalf("Update %+v: error %v, want ErrNotOwned", opts, err)
		}
		if _, err := Update(dir, treeOf(map[string]string{cmPath: cmBlue}), opts); !errors.Is(err, ErrNotOwned) {
			t.Fatalf("Update %+v with equal content: error %v, want ErrNotOwned", opts, err)
		}
	}
	// A path nobody wrote is created; pruning deletes nothing it does not own.
	if _, err := Update(dir, treeOf(map[string]string{nsPath: ns}), UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	want := owning(map[string]string{"c1/_cluster/": "", nsPath: ns}, nsPath)
	for p, data := range before {
		want[p] = data
	}
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// Adopting takes over exactly the rendered paths' files, and says so.
	rep, err := Update(dir, treeOf(map[string]string{nsPath: ns, cmPath: cmGreen}), UpdateOptions{Prune: true, Adopt: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{cmPath}, rep.Adopted); diff != "" {
		t.Errorf("Adopted (-want +got):\n%s", diff)
	}
	want = owning(map[string]string{"c1/": "", "c1/ns/": "", "c1/_cluster/": "", nsPath: ns, cmPath: cmGreen,
		"c1/ns/secret_old.yaml": "hand-written\n"}, cmPath, nsPath)
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("files after adopting (-want +got):\n%s", diff)
	}
}

func TestUpdateKeepsDirectoryMode(t *testing.T) {
	parent := t.TempDir()
	for _, tt := range []struct {
		name string
		mode os.FileMode // 0: the directory does not exist yet
		want os.FileMode
	}{{"new", 0, 0o755 &^ umask(t)}, {"existing 0750", 0o750, 0o750}} {
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
			if _, err := Update(dir, treeOf(map[string]string{cmPath: cmBlue}), UpdateOptions{}); err != nil {
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

// TestRecoverJournal: the next run rolls a committed journal forward and
// an uncommitted one back, and says which.
func TestRecoverJournal(t *testing.T) {
	const tmp1, tmp2, own = "c1/ns/.drydock-00000000000000aa-1.tmp", "c1/new/.drydock-00000000000000aa-2.tmp", ".drydock-00000000000000aa-3.tmp"
	start := owning(map[string]string{cmPath: cmBlue, "c1/ns/secret_gone.yaml": "gone\n"}, cmPath, "c1/ns/secret_gone.yaml")
	staged := map[string]string{tmp1: cmGreen, tmp2: ns, own: string(encodeOwnership([]string{cmPath, "c1/new/x.yaml"}))}
	lines := journalHeader + "mkdir \"c1/new\"\nstage \"" + tmp1 + "\" \"" + cmPath + "\"\nstage \"" + tmp2 + "\" \"c1/new/x.yaml\"\n" +
		"delete \"c1/ns/secret_gone.yaml\"\nown \"" + own + "\"\n"
	oldTree := map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmBlue, "c1/ns/secret_gone.yaml": "gone\n", OwnershipFile: start[OwnershipFile]}
	newTree := map[string]string{"c1/": "", "c1/ns/": "", "c1/new/": "", cmPath: cmGreen, "c1/new/x.yaml": ns, OwnershipFile: staged[own]}
	tests := []struct {
		name    string
		journal string
		applied bool // the first staged file was renamed already
		want    map[string]string
		did     string
	}{
		{"committed", lines + "commit\n", false, newTree, "completed an interrupted update (2 staged files)"},
		{"committed, half applied", lines + "commit\n", true, newTree, "completed an interrupted update (2 staged files)"},
		{"not committed", lines, false, oldTree, "rolled back an interrupted update (2 staged files discarded)"},
		{"torn commit line", lines + "comm", false, oldTree, "rolled back an interrupted update (2 staged files discarded)"},
		{"torn header", journalHeader[:5], false, oldTree, "rolled back an interrupted update (0 staged files discarded)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeDir(t, dir, start)
			files := map[string]string{JournalFile: tt.journal}
			if tt.journal != journalHeader[:5] {
				for p, data := range staged {
					files[p] = data
				}
			}
			writeDir(t, dir, files)
			if tt.applied {
				if err := os.Rename(filepath.Join(dir, tmp1), filepath.Join(dir, cmPath)); err != nil {
					t.Fatal(err)
				}
			}
			l, err := List(dir)
			if err != nil {
				t.Fatal(err)
			}
			l.Close()
			if diff := cmp.Diff([]string{tt.did}, l.Leftovers()); diff != "" {
				t.Errorf("Leftovers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, readAll(t, dir)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUpdateLock: the lock lives in the directory and is removed when the
// update ends; a second update waits for it, then fails naming it.
func TestUpdateLock(t *testing.T) {
	dir := t.TempDir()
	if _, err := Update(dir, treeOf(map[string]string{cmPath: cmBlue}), UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, LockFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the lock file stays after the update: %v", err)
	}
	defer func(w time.Duration) { LockWait = w }(LockWait)
	LockWait = 100 * time.Millisecond
	u, err := NewUpdater(dir, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, LockFile)); err != nil {
		t.Errorf("no lock file while updating: %v", err)
	}
	// Another environment (TMPDIR) sees the same lock.
	t.Setenv("TMPDIR", t.TempDir())
	if _, err := Update(dir, treeOf(map[string]string{cmPath: cmGreen}), UpdateOptions{}); err == nil || !strings.Contains(err.Error(), "another drydock is updating it") {
		t.Errorf("second update while locked: %v", err)
	}
	done := make(chan error)
	LockWait = 10 * time.Second
	go func() {
		_, err := Update(dir, treeOf(map[string]string{cmPath: cmGreen}), UpdateOptions{})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if _, err := u.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting update: %v", err)
	}
	if got := readTree(t, dir); !cmp.Equal(got, map[string]string{cmPath: cmGreen}) {
		t.Errorf("after both updates: %v", got)
	}
}

// TestConcurrentWriter: files another process writes into the directory
// (beside drydock's, in its subdirectories) while updates run all
// survive.
func TestConcurrentWriter(t *testing.T) {
	dir := t.TempDir()
	if _, err := Update(dir, treeOf(treeA), UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	written := map[string]string{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p := fmt.Sprintf("c1/ns/foreign-%d.yaml", i)
			if i%2 == 1 {
				p = fmt.Sprintf("foreign-%d.txt", i)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(strconv.Itoa(i)), 0o644); err == nil {
				written[p] = strconv.Itoa(i)
			}
		}
	}()
	for i := 0; i < 50; i++ {
		next := treeA
		if i%2 == 0 {
			next = treeB
		}
		if _, err := Update(dir, treeOf(next), UpdateOptions{Prune: true}); err != nil {
			close(stop)
			wg.Wait()
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	got := readAll(t, dir)
	lost := 0
	for p, data := range written {
		if got[p] != data {
			lost++
		}
	}
	if lost > 0 || len(written) == 0 {
		t.Errorf("%d of %d files written by another process lost", lost, len(written))
	}
	t.Logf("%d foreign files written during 50 updates, all kept", len(written))
}

// The trees the kill tests alternate between: files changed, added and
// removed (pruned), in directories made and emptied.
var (
	treeA = map[string]string{cmPath: cmBlue, nsPath: ns, "c1/a/only_a.yaml": "a\n", "c2/x/secret_s.yaml": "a\n"}
	treeB = map[string]string{cmPath: cmGreen, nsPath: ns, "c1/b/only_b.yaml": "b\n", "c2/x/secret_s.yaml": "b\n", "c3/y/z.yaml": "b\n"}
)

// foreign are files another process keeps in the directory: kills never
// touch them.
var foreign = map[string]string{"README.md": "mine\n", "c1/ns/mine.yaml": "mine\n", "c2/notes.txt": "mine\n"}

// TestKillChild is the child of TestUpdateKilled: it updates the directory
// between treeA and treeB, killing itself at the change numbered
// DRYDOCK_GOLDEN_KILL_AT (counted over its run) or looping until killed.
func TestKillChild(t *testing.T) {
	dir := os.Getenv("DRYDOCK_GOLDEN_KILL_CHILD")
	if dir == "" {
		t.Skip("run by TestUpdateKilled")
	}
	if at, err := strconv.Atoi(os.Getenv("DRYDOCK_GOLDEN_KILL_AT")); err == nil {
		n := 0
		step = func() {
			if n++; n == at {
				if self, err := os.FindProcess(os.Getpid()); err == nil {
					_ = self.Kill() // SIGKILL: no deferred cleanup runs
				}
				select {}
			}
		}
	}
	for i := 0; ; i++ {
		next := treeA
		if i%2 == 0 {
			next = treeB
		}
		if _, err := Update(dir, treeOf(next), UpdateOptions{Prune: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUpdateKilled kills an updating process at every change an update
// makes (and at random moments) and checks, after the next run completes
// the journal, that the files drydock owns are wholly one tree, the
// OwnershipFile agrees, other processes' files and the directories'
// metadata are unchanged, and nothing of the update is left.
func TestUpdateKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := filepath.Join(t.TempDir(), "golden")
	if _, err := Update(dir, treeOf(treeA), UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	writeDir(t, dir, foreign)
	if err := os.Chmod(dir, 0o750|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen, kills := map[string]int{}, 0
	check := func(what string) {
		t.Helper()
		kills++
		if err := nextRun(dir); err != nil { // the next run: completes the journal
			t.Fatalf("%s: the next run: %v", what, err)
		}
		seen[wholeTree(t, dir, what)]++
		after, err := os.Stat(dir)
		if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
			t.Fatalf("%s: the directory was replaced or changed: %v %v", what, after.Mode(), err)
		}
	}
	// Every change point of two updates (A→B, B→A): at least 2 × 30.
	for at := 1; at <= 80; at++ {
		killChild(t, dir, "DRYDOCK_GOLDEN_KILL_AT="+strconv.Itoa(at))
		check(fmt.Sprintf("killed at change %d", at))
	}
	for round := 0; round < 40; round++ {
		killChild(t, dir, "DRYDOCK_GOLDEN_KILL_AFTER="+strconv.Itoa(rand.IntN(40)))
		check(fmt.Sprintf("killed after %d ms", round))
	}
	if seen["A"] == 0 || seen["B"] == 0 {
		t.Errorf("the kills never left one of the trees: %v", seen)
	}
	t.Logf("%d kills; trees seen after the next run: %v", kills, seen)
}

// killChild runs TestKillChild on dir, killed at the change the
// environment names, or after DRYDOCK_GOLDEN_KILL_AFTER milliseconds.
func killChild(t *testing.T, dir string, env string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "DRYDOCK_GOLDEN_KILL_CHILD="+dir, env)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if ms, ok := strings.CutPrefix(env, "DRYDOCK_GOLDEN_KILL_AFTER="); ok {
		n, _ := strconv.Atoi(ms)
		time.Sleep(time.Duration(n) * time.Millisecond)
		_ = cmd.Process.Kill() // SIGKILL
	}
	_ = cmd.Wait()
}

// wholeTree names the tree dir holds ("A" or "B"), failing the test on a
// mix, a stale OwnershipFile, a lost foreign file or a leftover of the
// update (staged file, journal, lock).
func wholeTree(t *testing.T, dir, what string) string {
	t.Helper()
	got := readAll(t, dir)
	for p, data := range foreign {
		if got[p] != data {
			t.Fatalf("%s: the foreign file %s is %q, want %q", what, p, got[p], data)
		}
		delete(got, p)
	}
	for p, data := range got {
		if strings.HasSuffix(p, "/") {
			delete(got, p)
			continue
		}
		if strings.HasSuffix(p, ".tmp") || p == JournalFile || p == LockFile {
			t.Fatalf("%s: left %s after the next run", what, p)
		}
		_ = data
	}
	own := got[OwnershipFile]
	delete(got, OwnershipFile)
	for name, want := range map[string]map[string]string{"A": treeA, "B": treeB} {
		if cmp.Diff(want, got, cmpopts.EquateEmpty()) == "" {
			if own != string(encodeOwnership(treeOf(want).Paths())) {
				t.Fatalf("%s: tree %s with a stale ownership file:\n%s", what, name, own)
			}
			return name
		}
	}
	t.Fatalf("%s: a kill left a mixed tree: %v", what, got)
	return ""
}

// FuzzJournal: any bytes at the journal's place (a repository may commit
// one) parse without a panic into entries whose operands are clean
// relative paths (what recovery may do with them is checkReplay's), or an
// error.
func FuzzJournal(f *testing.F) {
	f.Add([]byte(journalHeader + "mkdir \"c1\"\nstage \"c1/.drydock-a-1.tmp\" \"c1/x.yaml\"\ndelete \"old.yaml\"\nown \".drydock-a-2.tmp\"\ncommit\n"))
	f.Add([]byte(journalHeader + "stage \"../x\" \"/etc/passwd\"\n"))
	f.Add([]byte(journalHeader[:4]))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, _, err := parseJournal(data)
		if err != nil {
			return
		}
		for _, e := range entries {
			if len(e.args) != arity[e.op] {
				t.Fatalf("entry %v: %d operands", e, len(e.args))
			}
			for _, a := range e.args {
				if cleanPath(a) != nil {
					t.Fatalf("entry %v: operand %q is not a clean relative path", e, a)
				}
			}
		}
	})
}

// TestForeignFileAtNewPath: a file another process creates, during an
// update, at a rendered path that held none is kept: drydock's copy is
// discarded, the path is not owned, the rest of the update is done, and
// the error says so.
func TestForeignFileAtNewPath(t *testing.T) {
	dir := t.TempDir()
	if _, err := Update(dir, treeOf(map[string]string{nsPath: ns}), UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	u, err := NewUpdater(dir, UpdateOptions{Prune: true})
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string]string{nsPath: ns + "# changed\n", cmPath: cmBlue} {
		if err := u.Put(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	writeDir(t, dir, map[string]string{cmPath: "another process's\n"}) // between staging and commit
	_, err = u.Commit()
	if !errors.Is(err, ErrNotOwned) || !strings.Contains(err.Error(), "another process created "+cmPath) {
		t.Fatalf("Commit error %v, want ErrNotOwned naming %s", err, cmPath)
	}
	want := owning(map[string]string{"c1/": "", "c1/ns/": "", "c1/_cluster/": "", nsPath: ns + "# changed\n", cmPath: "another process's\n"}, nsPath)
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}
