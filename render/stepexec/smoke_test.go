package stepexec

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func loadTemplate(t *testing.T, name string) string {
	b, err := os.ReadFile("/work/shared/conformance/kubevela/definitions/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := yaml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d["spec"].(map[string]any)["schematic"].(map[string]any)["cue"].(map[string]any)["template"].(string)
}

func TestSmoke(t *testing.T) {
	for _, c := range []struct{ typ string; props map[string]any }{
		{"print-message-in-status", map[string]any{"message": "hi"}},
		{"request", map[string]any{"url": "https://x.example/api"}},
		{"depends-on-app", map[string]any{"name": "a", "namespace": "default"}},
		{"notification", map[string]any{"slack": map[string]any{"url": map[string]any{"value": "https://hooks"}, "message": map[string]any{"text": "hello"}}}},
		{"apply-application", nil},
		{"restart-workflow", map[string]any{"after": "5m"}},
	} {
		var lines []string
		res, err := Run(&fakeHost{}, Step{Name: "s", Type: c.typ, Template: loadTemplate(t, c.typ), TemplateFile: c.typ + ".cue", Properties: c.props,
			Context: map[string]any{"name": "app", "namespace": "default", "appName": "app", "stepName": "s", "stepSessionID": "abc"}},
			Options{Trace: func(l string) { lines = append(lines, l) }})
		fmt.Println(c.typ, err, strings.Join(lines, "\n"))
		if res != nil {
			fmt.Println(res.Message)
		}
	}
}
