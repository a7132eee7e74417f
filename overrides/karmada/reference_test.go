package karmada

import (
	"strings"
	"testing"

	"github.com/distribution/reference"
	"github.com/google/go-cmp/cmp"
)

// libraryImage is parseImageUncached as it was written on
// github.com/distribution/reference, the oracle of parseReference.
func libraryImage(s string) (image, error) {
	ref, err := reference.Parse(s)
	if err != nil {
		return image{}, err
	}
	var img image
	if named, ok := ref.(reference.Named); ok {
		img.host, img.repository = splitHostname(named.Name())
	}
	if tagged, ok := ref.(reference.Tagged); ok {
		img.tag = tagged.Tag()
	} else if digested, ok := ref.(reference.Digested); ok {
		img.digest = digested.Digest().String()
	}
	return img, nil
}

func checkReference(t *testing.T, s string) {
	t.Helper()
	want, wantErr := libraryImage(s)
	got, gotErr := parseImageUncached(s)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("parse %q: error %v, reference.Parse's %v", s, gotErr, wantErr)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(image{})); diff != "" {
		t.Fatalf("parse %q (-reference.Parse +parseReference):\n%s", s, diff)
	}
}

var referenceCases = []string{
	"", "nginx", "nginx:1.25", "library/nginx:latest", "docker.io/library/nginx:1.25", "localhost/app", "localhost:5000/app:v1",
	"registry.example.com/web:0", "Registry.Example.com/web", "UPPER/case", "a/B", "nginx@sha256:" + strings.Repeat("a", 64),
	"nginx:1.25@sha256:" + strings.Repeat("b", 64), "nginx@sha256:" + strings.Repeat("a", 63), "nginx@sha512:" + strings.Repeat("c", 128),
	"nginx@md5:" + strings.Repeat("d", 32), "nginx@sha256:" + strings.Repeat("A", 64), "[::1]:5000/app", "[fe80::1]/app:tag",
	"a__b/c--d/e.f", "a___b", "a-/b", "-a", "a:", "a:-tag", "a:" + strings.Repeat("t", 128), "a:" + strings.Repeat("t", 129),
	strings.Repeat("a", 256), strings.Repeat("a/", 127) + "a", "host.com/" + strings.Repeat("p", 255), "host.com/" + strings.Repeat("p", 256),
	"a b", "a\n", ":tag", "@sha256:" + strings.Repeat("a", 64), "host:port/a", "host:80/a/b/c:1", "a//b", "a/b/", "example.com:/a",
}

// TestParseReferenceLikeLibrary: parseReference splits and refuses as
// github.com/distribution/reference's Parse does, with its messages.
func TestParseReferenceLikeLibrary(t *testing.T) {
	for _, s := range referenceCases {
		checkReference(t, s)
	}
}

// FuzzParseReference: parseReference against reference.Parse.
func FuzzParseReference(f *testing.F) {
	for _, s := range referenceCases {
		f.Add(s)
	}
	f.Fuzz(checkReference)
}
