//go:build unix

package deftest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/tree"
)

const (
	greeterDef = `"greeter": {
	type: "component"
	attributes: workload: definition: {apiVersion: "v1", kind: "ConfigMap"}
}
template: {
	output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name, data: greeting: "hello " + parameter.who}
	parameter: who: *"world" | string
}
`
	greeterTest = "tests:\n  - name: greeter\n    definition: greeter\n    asserts: [{snapshot: {ignore: [\"metadata.labels\"]}}]\n"
	// greeterSnap is what the greeter test renders.
	greeterSnap = "apiVersion: v1\ndata:\n  greeting: hello world\nkind: ConfigMap\nmetadata:\n  name: greeter\n  namespace: default\n"
	snapDir     = "repo/tests/__snapshot__/greeter_test"
	snapFile    = snapDir + "/greeter.yaml"
	stale       = "stale: snapshot\n"
)

// snapshotRepo makes, in the current directory, a repository repo/ with
// the greeter definition (in defs/) and its snapshot test
// (tests/greeter_test.yaml), and an outside/
// directory beside it holding outside/greeter.yaml and
// outside/greeter_test/greeter.yaml (both stale).
func snapshotRepo(t *testing.T) {
	t.Helper()
	files := map[string]string{
		"repo/defs/greeter.cue":             greeterDef,
		"repo/tests/greeter_test.yaml":      greeterTest,
		"outside/greeter.yaml":              stale,
		"outside/greeter_test/greeter.yaml": stale,
	}
	if err := os.MkdirAll("repo/.git", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		writeFile(t, name, data)
	}
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// runSnapshots runs the repository's snapshot test from inside it and
// writes what it asks for, as check does once every test of a file has
// run; it fails the test if that takes more than ten seconds (a FIFO
// opened for reading blocks until a writer comes).
func runSnapshots(t *testing.T, opts Options, prune bool) (Outcome, error) {
	t.Helper()
	defs, err := pipeline.LoadDefinitions([]string{"repo/defs"}, false)
	if err != nil {
		t.Fatal(err)
	}
	test := prepared(t, Test{Name: "greeter", Definition: "greeter",
		Asserts: []Assert{{Snapshot: &snapshotSpec{Ignore: []string{"metadata.labels"}}}}})[0]
	type result struct {
		out Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		const file = "repo/tests/greeter_test.yaml"
		out, err := Run(context.Background(), defs, file, manifest.Pos{}, test, opts)
		if err == nil {
			_, err = WriteSnapshots([]string{file}, []Outcome{out}, opts.Update, prune)
		}
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("the snapshot test blocked for ten seconds")
		return Outcome{}, nil
	}
}

// TestSnapshotPaths checks that snapshots are read and written only as
// regular files in real directories below the test file: symbolic links
// (into the repository or out of it), FIFOs and devices are refused, and
// nothing outside is read or written.
func TestSnapshotPaths(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T)
		opts  Options
		prune bool
		// err is a substring of the suite's error ("" for none), files the
		// content of files after the run ("" for missing).
		err      string
		findings []string
		files    map[string]string
	}{
		{
			name:  "a missing snapshot is written and owned",
			setup: func(t *testing.T) {},
			files: map[string]string{snapFile: greeterSnap, snapDir + "/" + tree.OwnershipFile: "greeter.yaml"},
		},
		{
			name:  "__snapshot__ linked out of the repository",
			setup: func(t *testing.T) { symlink(t, "../../outside", "repo/tests/__snapshot__") },
			opts:  Options{Update: true},
			err:   "repo/tests/__snapshot__: not a snapshot drydock may read or write: it is a symbolic link",
			files: map[string]string{"outside/greeter_test/greeter.yaml": stale, "outside/greeter_test/" + tree.OwnershipFile: ""},
		},
		{
			name: "the snapshot directory linked inside the repository",
			setup: func(t *testing.T) {
				writeFile(t, "repo/elsewhere/greeter.yaml", stale)
				symlink(t, "../../elsewhere", snapDir)
			},
			opts:  Options{Update: true},
			err:   snapDir + ": not a snapshot drydock may read or write: it is a symbolic link",
			files: map[string]string{"repo/elsewhere/greeter.yaml": stale, "repo/elsewhere/" + tree.OwnershipFile: ""},
		},
		{
			name:  "the snapshot linked out of the repository",
			setup: func(t *testing.T) { symlink(t, "../../../../outside/greeter.yaml", snapFile) },
			opts:  Options{Update: true},
			err:   snapFile + ": not a snapshot drydock may read or write: it is a symbolic link",
			files: map[string]string{"outside/greeter.yaml": stale},
		},
		{
			name: "the snapshot linked inside the repository",
			setup: func(t *testing.T) {
				writeFile(t, "repo/elsewhere/greeter.yaml", stale)
				symlink(t, "../../../elsewhere/greeter.yaml", snapFile)
			},
			opts:  Options{Update: true},
			err:   snapFile + ": not a snapshot drydock may read or write: it is a symbolic link",
			files: map[string]string{"repo/elsewhere/greeter.yaml": stale},
		},
		{
			name: "a FIFO does not block",
			setup: func(t *testing.T) {
				if err := os.MkdirAll(snapDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(snapFile, 0o644); err != nil {
					t.Skipf("no FIFOs here: %v", err)
				}
			},
			err: snapFile + ": not a snapshot drydock may read or write: not a regular file (a FIFO)",
		},
		{
			name:  "a link to /dev/zero is not read",
			setup: func(t *testing.T) { symlink(t, "/dev/zero", snapFile) },
			err:   snapFile + ": not a snapshot drydock may read or write: it is a symbolic link",
		},
		{
			name:  "a hand-written snapshot differs and is not rewritten",
			setup: func(t *testing.T) { writeFile(t, snapFile, stale) },
			opts:  Options{Update: true},
			findings: []string{`0: differs from ` + snapFile +
				`, which drydock did not write (` + snapDir + `/.drydock-golden does not list it), so --update leaves it: delete it, or add the line "greeter.yaml" to ` +
				snapDir + `/.drydock-golden, to let drydock rewrite it`},
			files: map[string]string{snapFile: stale, snapDir + "/" + tree.OwnershipFile: ""},
		},
		{
			name:  "a hand-written snapshot that matches is left unowned",
			setup: func(t *testing.T) { writeFile(t, snapFile, greeterSnap) },
			opts:  Options{Update: true},
			files: map[string]string{snapFile: greeterSnap, snapDir + "/" + tree.OwnershipFile: ""},
		},
		{
			name: "an owned snapshot is rewritten",
			setup: func(t *testing.T) {
				writeFile(t, snapFile, stale)
				writeFile(t, snapDir+"/"+tree.OwnershipFile, "greeter.yaml\n")
			},
			opts:  Options{Update: true},
			files: map[string]string{snapFile: greeterSnap, snapDir + "/" + tree.OwnershipFile: "greeter.yaml"},
		},
		{
			name: "prune deletes an owned snapshot no test renders, never a hand-written one",
			setup: func(t *testing.T) {
				writeFile(t, snapDir+"/gone.yaml", stale)
				writeFile(t, snapDir+"/mine.yaml", stale)
				writeFile(t, snapDir+"/"+tree.OwnershipFile, "gone.yaml\n")
			},
			opts:  Options{Update: true},
			prune: true,
			files: map[string]string{snapFile: greeterSnap, snapDir + "/gone.yaml": "", snapDir + "/mine.yaml": stale, snapDir + "/" + tree.OwnershipFile: "greeter.yaml"},
		},
		{
			name: "without prune an owned snapshot no test renders stays owned",
			setup: func(t *testing.T) {
				writeFile(t, snapDir+"/gone.yaml", stale)
				writeFile(t, snapDir+"/"+tree.OwnershipFile, "gone.yaml\n")
			},
			opts:  Options{Update: true},
			files: map[string]string{snapFile: greeterSnap, snapDir + "/gone.yaml": stale, snapDir + "/" + tree.OwnershipFile: "gone.yaml greeter.yaml"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			snapshotRepo(t)
			tt.setup(t)
			out, err := runSnapshots(t, tt.opts, tt.prune)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.err != "" && (err == nil || !strings.Contains(manifest.Format(err, nil), tt.err)):
				t.Errorf("error %v, want one containing %q", err, tt.err)
			case tt.err != "" && !errors.Is(err, errSnapshotPath):
				t.Errorf("error %v does not wrap errSnapshotPath", err)
			}
			if tt.err == "" {
				var got []string
				for _, f := range out.Failures {
					got = append(got, fmt.Sprintf("%d: %s", f.Assert, f.Message))
				}
				if diff := cmp.Diff(tt.findings, got); diff != "" {
					t.Errorf("failures (-want +got):\n%s", diff)
				}
			}
			for name, want := range tt.files {
				if got := readOr(t, name); got != want {
					t.Errorf("%s holds %q, want %q", name, got, want)
				}
			}
		})
	}
}

// readOr is the content of the file name ("" if missing); an ownership
// file is given as its listed names joined by spaces.
func readOr(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(name) != tree.OwnershipFile {
		return string(data)
	}
	var names []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			names = append(names, l)
		}
	}
	return strings.Join(names, " ")
}

// TestReadInsideDevices checks that a device is refused before it is
// opened: /dev/zero itself, and a device node made where a snapshot goes
// (when this process may make one).
func TestReadInsideDevices(t *testing.T) {
	if _, err := os.Lstat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero here: %v", err)
	}
	_, err := readInside("/dev", "zero")
	if !errors.Is(err, errSnapshotPath) || !strings.Contains(manifest.Format(err, nil), "/dev/zero: not a snapshot drydock may read or write: not a regular file (a device)") {
		t.Errorf("readInside(/dev/zero): %v, want a refusal of a device", err)
	}
	dir := t.TempDir()
	// Mode 0: a character device (1, 5) that no one may open.
	if err := syscall.Mknod(filepath.Join(dir, "zero.yaml"), syscall.S_IFCHR, 1<<8|5); err != nil {
		t.Logf("no device node made (%v): /dev/zero alone checked", err)
		return
	}
	if _, err := readInside(dir, "zero.yaml"); !errors.Is(err, errSnapshotPath) {
		t.Errorf("readInside(device node): %v, want a refusal", err)
	}
}

// TestReadInsideLimit checks that a snapshot larger than the input limit
// is refused, not read.
func TestReadInsideLimit(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(manifest.MaxInputBytes + 1); err != nil { // sparse
		t.Fatal(err)
	}
	f.Close()
	if _, err := readInside(dir, "big.yaml"); err == nil || !strings.Contains(manifest.Format(err, nil), "larger than MaxInputBytes") {
		t.Errorf("readInside(big): %v, want a refusal of a file too large", err)
	}
}

// TestSnapshotPlaceNames: a test's name becomes one file name in its
// snapshot directory, one the ownership file can list as itself: path
// separators, white space and control characters (a line break would
// make drydock own another file, "x\nhand" owning hand.yaml) become "_".
func TestSnapshotPlaceNames(t *testing.T) {
	for name, want := range map[string]string{
		"greeter":         "greeter.yaml",
		"x\nhand":         "x_hand.yaml",
		" mine":           "_mine.yaml",
		"a/b\\c:d e\r\tf": "a_b_c_d_e__f.yaml",
		"esc\x1b[31m":     "esc_[31m.yaml",
	} {
		if _, _, got := snapshotPlace("tests/t_test.yaml", name); got != want {
			t.Errorf("snapshot of %q: %q, want %q", name, got, want)
		}
	}
}
