package karmada

import (
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

const digest = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"

func TestOverrideImage(t *testing.T) {
	tests := []struct {
		image     string
		component string
		op        string
		value     string
		want      string
		wantErr   string
	}{
		{"nginx", ComponentRegistry, OpAdd, "registry.k8s.io", "registry.k8s.io/nginx", ""},
		{"registry.k8s.io/nginx:1.0", ComponentRegistry, OpAdd, "-mirror", "registry.k8s.io-mirror/nginx:1.0", ""},
		{"team/web:v1", ComponentRegistry, OpReplace, "r.example.com", "r.example.com/team/web:v1", ""},
		{"localhost/web:v1", ComponentRegistry, OpRemove, "", "web:v1", ""},
		{"host:5000/a/b/c:v1", ComponentRegistry, OpRemove, "", "a/b/c:v1", ""},
		// docker.io is not implied, and library/ is not added.
		{"docker.io/nginx", ComponentRepository, OpAdd, "-debug", "docker.io/nginx-debug", ""},
		{"r.example.com/team/web:v1", ComponentRepository, OpReplace, "other/app", "r.example.com/other/app:v1", ""},
		{"r.example.com/team/web:v1", ComponentRepository, OpRemove, "", "r.example.com/:v1", ""},
		{"web:v1", ComponentTag, OpAdd, "-rc1", "web:v1-rc1", ""},
		{"web:v1", ComponentTag, OpAdd, "@" + digest, "web:v1", ""},
		{"web:v1", ComponentTag, OpReplace, digest, "web@" + digest, ""},
		{"web@" + digest, ComponentTag, OpReplace, "v2", "web:v2", ""},
		{"web@" + digest, ComponentTag, OpAdd, "00", "web@" + digest + "00", ""},
		{"web:v1@" + digest, ComponentTag, OpRemove, "", "web", ""},
		{"web@" + digest, ComponentTag, OpRemove, "", "web", ""},
		{"web:v1", ComponentTag, OpReplace, "not a tag", "web:v1", ""},
		{"Web:v1", ComponentTag, OpRemove, "", "", "failed to parse image value(Web:v1), error: repository name must be lowercase"},
		{"", ComponentTag, OpRemove, "", "", "failed to parse image value(), error: repository name must have at least one component"},
		{"web@sha256:0123456789abcdef0123456789abcdef01234567", ComponentTag, OpRemove, "", "", "invalid checksum digest length"},
		{"web@md5:0123456789abcdef0123456789abcdef", ComponentTag, OpRemove, "", "", "unsupported digest algorithm"},
		{"web:", ComponentTag, OpRemove, "", "", "invalid reference format"},
	}
	for _, tt := range tests {
		t.Run(tt.image+" "+tt.component+" "+tt.op, func(t *testing.T) {
			got, err := overrideImage(tt.image, &ImageOverrider{Component: tt.component, Operator: tt.op, Value: tt.value})
			gotErr := ""
			if err != nil {
				gotErr = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.wantErr != "", gotErr != ""); diff != "" {
				t.Fatalf("error %q, want %q", gotErr, tt.wantErr)
			}
			if tt.wantErr != "" && !strings.Contains(gotErr, tt.wantErr) {
				t.Errorf("error %q does not contain %q", gotErr, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
