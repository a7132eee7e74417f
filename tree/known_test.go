package tree

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func contentDigest(s string) Digest {
	var d Digest
	copy(d[:], s)
	return d
}

// TestKnownMarshal: a record reads back as it was; every truncation, an
// extension and another version do not read.
func TestKnownMarshal(t *testing.T) {
	k := Known{
		"a/b.yaml": {File: FileID{Size: 10, ModNs: -1, ChangeNs: 1 << 60, Ino: 7, Dev: 1 << 63}, Rendered: contentDigest("x")},
		"c.yaml":   {Rendered: contentDigest("y")},
	}
	data := k.Marshal()
	got, err := ParseKnown(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(k, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if empty, err := ParseKnown(Known{}.Marshal()); err != nil || len(empty) != 0 {
		t.Errorf("an empty record: %v, %v", empty, err)
	}
	bad := [][]byte{nil, append(append([]byte{}, data...), 0), []byte("drydock known files 2\n\x00")}
	for i := range data {
		bad = append(bad, data[:i])
	}
	for _, b := range bad {
		if _, err := ParseKnown(b); !errors.Is(err, ErrBadKnown) {
			t.Errorf("ParseKnown(%q) = %v, want ErrBadKnown", b, err)
		}
	}
}
