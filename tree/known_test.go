package tree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
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

// TestParseKnownInto: the files keep accepts are added to the map given;
// a record that does not read (truncated, or paths out of Marshal's order,
// a duplicate among them) adds nothing; KnownLen reads the header's count.
func TestParseKnownInto(t *testing.T) {
	k := Known{}
	for i := range 50 {
		k[fmt.Sprintf("c/%02d.yaml", i)] = KnownFile{File: FileID{Size: int64(i), Ino: uint64(i)}, Rendered: contentDigest(fmt.Sprint(i))}
	}
	data := k.Marshal()
	if n, ok := KnownLen(data); !ok || n != 50 {
		t.Errorf("KnownLen = %d, %t", n, ok)
	}
	if _, ok := KnownLen([]byte("drydock known files 1\n\xff")); ok {
		t.Error("KnownLen of a bad header is ok")
	}
	into := Known{"z.yaml": {}}
	n, err := ParseKnownInto(data, into, func(p string) bool { return p < "c/10.yaml" })
	if err != nil || n != 10 || len(into) != 11 {
		t.Fatalf("ParseKnownInto = %d, %v; %d files", n, err, len(into))
	}
	for p, f := range into {
		if p != "z.yaml" && f != k[p] {
			t.Errorf("%s: %+v, want %+v", p, f, k[p])
		}
	}
	// Paths out of order, and a duplicate: swap the first two entries'
	// paths in place (same length), then make the second the first's.
	i := bytes.Index(data, []byte("c/00.yaml"))
	j := bytes.Index(data, []byte("c/01.yaml"))
	swapped := bytes.Clone(data)
	copy(swapped[i:], "c/01.yaml")
	copy(swapped[j:], "c/00.yaml")
	dup := bytes.Clone(data)
	copy(dup[j:], "c/00.yaml")
	for name, b := range map[string][]byte{"out of order": swapped, "duplicate": dup, "truncated": data[:len(data)-3]} {
		into := Known{}
		if n, err := ParseKnownInto(b, into, nil); !errors.Is(err, ErrBadKnown) || n != 0 || len(into) != 0 {
			t.Errorf("%s: %d, %v, %d files added", name, n, err, len(into))
		}
	}
}

// TestParseKnownAllocs: a record of thousands of files reads into a map
// sized for it with one allocation, the string its paths are cut from
// (not one a path, nor a slice of its files).
func TestParseKnownAllocs(t *testing.T) {
	k := Known{}
	for i := range 2000 {
		k[fmt.Sprintf("c1/team-%d/deployment.apps_web-%d.yaml", i%10, i)] = KnownFile{}
	}
	data := k.Marshal()
	into := make(Known, 2000)
	if n := testing.AllocsPerRun(10, func() {
		clear(into)
		if _, err := ParseKnownInto(data, into, nil); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Errorf("ParseKnownInto of 2,000 files allocates %.0f times", n)
	}
}

// TestKnownReaderVarints: the reader of a record held as a string reads
// varints as encoding/binary does, its errors (truncated, past 64 bits)
// included.
func TestKnownReaderVarints(t *testing.T) {
	cases := [][]byte{{}, {0x80}, {0xff, 0xff}, {1}, {0x7f}, {0x80, 1}}
	for _, v := range []uint64{0, 1, 127, 128, 300, 1 << 35, 1<<63 - 1, 1 << 63, ^uint64(0)} {
		cases = append(cases, binary.AppendUvarint(nil, v))
	}
	cases = append(cases, bytes.Repeat([]byte{0xff}, 10), append(bytes.Repeat([]byte{0xff}, 9), 2), append(bytes.Repeat([]byte{0x80}, 10), 0))
	for _, c := range cases {
		want, n := binary.Uvarint(c)
		r := knownReader{data: string(c)}
		got := r.uvarint()
		if n <= 0 {
			if !r.bad {
				t.Errorf("uvarint(%x) = %d, want bad", c, got)
			}
			continue
		}
		if r.bad || got != want || len(r.data) != len(c)-n {
			t.Errorf("uvarint(%x) = %d (bad %v, %d left), want %d (%d left)", c, got, r.bad, len(r.data), want, len(c)-n)
		}
		wantS, _ := binary.Varint(c)
		r = knownReader{data: string(c)}
		if got := r.varint(); got != wantS {
			t.Errorf("varint(%x) = %d, want %d", c, got, wantS)
		}
	}
}
