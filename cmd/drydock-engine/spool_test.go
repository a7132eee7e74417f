package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// setSpillAfter lowers the spool's memory budget for one test.
func setSpillAfter(t *testing.T, n int) {
	old := spillAfter
	spillAfter = n
	t.Cleanup(func() { spillAfter = old })
}

func TestSpoolSpillsToFile(t *testing.T) {
	setSpillAfter(t, 4096)
	var s spool
	defer s.close()
	r := rand.New(rand.NewPCG(1, 2))
	var want [][]byte
	var spans []span
	for i := range 300 {
		n := r.IntN(200)
		if i == 150 {
			n = 3 * spoolChunk // larger than a chunk
		}
		data := bytes.Repeat([]byte{byte('a' + i%26)}, n)
		data = append(data, fmt.Sprintf("#%d\n", i)...)
		sp, err := s.add(data)
		if err != nil {
			t.Fatal(err)
		}
		want, spans = append(want, data), append(spans, sp)
	}
	if s.file == nil || s.held > spillAfter {
		t.Fatalf("spool holds %d bytes in memory (budget %d), file %v", s.held, spillAfter, s.file)
	}
	inFile := 0
	for _, i := range r.Perm(len(want)) {
		got, err := s.bytes(spans[i])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[i]) {
			t.Fatalf("object %d (span %+v): got %d bytes, want %d", i, spans[i], len(got), len(want[i]))
		}
		if spans[i].chunk < 0 {
			inFile++
		}
	}
	if inFile == 0 || inFile == len(want) {
		t.Fatalf("%d of %d objects in the file, want some but not all", inFile, len(want))
	}
}

// TestStreamSpilledIsSame: the stdout stream is the same whether the
// spool keeps the objects in memory or in its file.
func TestStreamSpilledIsSame(t *testing.T) {
	example, err := filepath.Abs("../../examples/first-vela-app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	render := func() string {
		var stdout, stderr strings.Builder
		if code := run([]string{"render", example}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		return stdout.String()
	}
	inMemory := render()
	setSpillAfter(t, 0)
	if spilled := render(); spilled != inMemory {
		t.Errorf("spilled stream differs:\n%s\nin memory:\n%s", spilled, inMemory)
	}
	if strings.Count(inMemory, "# Source:") < 2 {
		t.Errorf("the example renders fewer than 2 objects:\n%s", inMemory)
	}
}

// TestSpoolWithoutTempDir: with no usable temporary directory the spool
// keeps everything in memory rather than failing the render.
func TestSpoolWithoutTempDir(t *testing.T) {
	setSpillAfter(t, 0)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var s spool
	defer s.close()
	a, err := s.add([]byte("a: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.add([]byte("b: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.file != nil || !s.noFile {
		t.Fatalf("spool made a file in a missing directory")
	}
	for sp, want := range map[span]string{a: "a: 1\n", b: "b: 2\n"} {
		if got, err := s.bytes(sp); err != nil || string(got) != want {
			t.Errorf("bytes(%+v) = %q, %v; want %q", sp, got, err, want)
		}
	}
}
