package addon

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNotes follows KubeVela's Installer.renderNotes: NOTES.cue is
// compiled after the context file (the parameter file's text, then
// `context: {installer: {upgrade: false}, metadata: <metadata.yaml>}` and
// `parameter: <args>`) as one file, and `notes` must be a string. Every
// failure only means no notes (enableAddon logs it and goes on), and so
// does an import or package clause in NOTES.cue, which cannot follow the
// context's declarations.
func TestNotes(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		params map[string]any
		want   string
	}{
		{name: "no NOTES.cue", want: ""},
		{name: "empty NOTES.cue", files: map[string]string{"NOTES.cue": ""}, want: ""},
		{
			name:  "context",
			files: map[string]string{"NOTES.cue": "notes: \"\\(context.metadata.name) \\(context.metadata.version) upgrade=\\(context.installer.upgrade)\"\n"},
			want:  "demo 1.0.0 upgrade=false",
		},
		{
			// the x-kv-test-notes case: parameters reach the notes
			name:   "parameters",
			files:  map[string]string{"NOTES.cue": "notes: \"example=\\(parameter.example)\"\n"},
			params: map[string]any{"example": "test"},
			want:   "example=test",
		},
		{
			name: "parameter defaults and the parameter file's imports",
			files: map[string]string{
				"parameter.cue": "package main\n\nimport \"strings\"\n\nparameter: {\n\tx: *\"low\" | string\n}\n",
				"NOTES.cue":     "notes: strings.ToUpper(parameter.x)\n",
			},
			want: "LOW",
		},
		{
			name:  "multi-line",
			files: map[string]string{"NOTES.cue": "notes: \"\"\"\n\tline 1\n\tline 2\n\t\"\"\"\n"},
			want:  "line 1\nline 2",
		},
		{
			name: "conditional",
			files: map[string]string{
				"parameter.cue": "parameter: {\n\tpluginOnly: *false | bool\n}\n",
				"NOTES.cue":     "notes: *\"full\" | string\nif parameter.pluginOnly {\n\tnotes: \"plugin\"\n}\n",
			},
			params: map[string]any{"pluginOnly": true},
			want:   "plugin",
		},
		{name: "notes not a string", files: map[string]string{"NOTES.cue": "notes: 1\n"}, want: ""},
		{name: "no notes field", files: map[string]string{"NOTES.cue": "other: \"x\"\n"}, want: ""},
		{name: "import", files: map[string]string{"NOTES.cue": "import \"strings\"\n\nnotes: strings.ToUpper(\"x\")\n"}, want: ""},
		{name: "package clause", files: map[string]string{"NOTES.cue": "package main\n\nnotes: \"x\"\n"}, want: ""},
		{name: "syntax error", files: map[string]string{"NOTES.cue": "notes: \"x\n"}, want: ""},
		{name: "conflict", files: map[string]string{"NOTES.cue": "notes: \"x\"\nnotes: \"y\"\n"}, want: ""},
		{
			name:   "conflict with a parameter",
			files:  map[string]string{"parameter.cue": "parameter: n: int\n", "NOTES.cue": "notes: \"\\(parameter.n)\"\n"},
			params: map[string]any{"n": "two"},
			want:   "",
		},
		{
			name:  "parameter file that does not parse",
			files: map[string]string{"parameter.cue": "parameter: {\n", "NOTES.cue": "notes: \"x\"\n"},
			want:  "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg, err := readPackage(addonFS(withMeta(tt.files)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, renderNotes(pkg, tt.params)); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}
