package manifest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKindName: kinds are taken as the API server takes a
// CustomResourceDefinition's names.kind: lower-cased, a DNS-1035 label.
func TestKindName(t *testing.T) {
	const rule = "may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	tests := []struct{ kind, want string }{
		{"ConfigMap", ""},
		{"HorizontalPodAutoscaler", ""},
		{"K8sRequiredLabels", ""},
		{"My-Kind", ""},
		{"", "Required value"},
		{"a/b", `Invalid value: "a/b": ` + rule},
		{"../../etc", `Invalid value: "../../etc": ` + rule},
		{"Deployment.apps", `Invalid value: "Deployment.apps": ` + rule},
		{"Config Map", `Invalid value: "Config Map": ` + rule},
		{"Config_Map", `Invalid value: "Config_Map": ` + rule},
		{"\x1b[31mRed", `Invalid value: "\x1b[31mRed": ` + rule},
		{"9Lives", `Invalid value: "9Lives": ` + rule},
		{"Trailing-", `Invalid value: "Trailing-": ` + rule},
		{"Ünicode", `Invalid value: "Ünicode": ` + rule},
		{strings.Repeat("K", 64), `Invalid value: "` + strings.Repeat("K", 64) + `": may have mixed case, but should otherwise match: must be no more than 63 characters`},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, KindName(tt.kind)); diff != "" {
				t.Errorf("KindName(%q) (-want +got):\n%s", tt.kind, diff)
			}
		})
	}
}
