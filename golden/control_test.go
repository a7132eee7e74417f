package golden

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestControlNames: a tree drydock writes may hold files other than
// .yaml ones (an addon's NOTES.txt), owned like the others and read back
// from the OwnershipFile by the next run; but no tree path may name
// drydock's control files or its temporary files, which the update would
// overwrite with its own (or its own with them).
func TestControlNames(t *testing.T) {
	dir := t.TempDir()
	files := Tree{"NOTES.txt": []byte("x\n"), "a.yaml": []byte("a: 1\n")}
	for i := range 2 {
		if err := Write(dir, files); err != nil {
			t.Fatalf("write %d: %v", i+1, err)
		}
	}
	want := owning(map[string]string{"NOTES.txt": "x\n", "a.yaml": "a: 1\n"}, "NOTES.txt", "a.yaml")
	for _, p := range []string{OwnershipFile, JournalFile, LockFile, ".drydock-0123456789abcdef-1.tmp", "sub/" + OwnershipFile} {
		if err := Write(dir, Tree{p: []byte("evil\n")}); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("write %s: error %v, want one wrapping ErrInvalidPath", p, err)
		}
	}
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}
