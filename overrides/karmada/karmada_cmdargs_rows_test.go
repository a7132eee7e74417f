package karmada

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// wantListOp is one JSON patch operation with a list value.
type wantListOp struct {
	op, path string
	value    []string
}

// commandWorkload builds the objects of Karmada's commandargsoverride_test
// generators: containers named by names, each with field (command or
// args) nginx -v -t.
func commandWorkload(kind, field string, names ...string) map[string]any {
	obj := workload(kind, make([]string, len(names))...)
	containers, _ := nestedContainers(obj)
	for i, c := range containers {
		m := c.(map[string]any)
		m["name"], m["image"] = names[i], "nginx"
		m[field] = []any{"nginx", "-v", "-t"}
	}
	return obj
}

func nestedContainers(obj map[string]any) ([]any, bool) {
	spec := obj["spec"].(map[string]any)
	if t, ok := spec["template"].(map[string]any); ok {
		spec = t["spec"].(map[string]any)
	}
	c, ok := spec["containers"].([]any)
	return c, ok
}

// TestCommandArgsOverriderKarmadaRows are the 12 rows of Karmada's
// TestParseJSONPatchesByCommandOverrider and ...ByArgsOverrider
// (pkg/util/overridemanager at f8fdd02), converted from their tables.
// Karmada's "DaemonSet" generator builds a ReplicaSet; so does this.
func TestCommandArgsOverriderKarmadaRows(t *testing.T) {
	var (
		cmdDeployment  = commandWorkload("Deployment", "command", "nginx")
		argsDeployment = commandWorkload("Deployment", "args", "nginx")
		cmdPod         = commandWorkload("Pod", "command", "nginx")
		cmdStatefulSet = commandWorkload("StatefulSet", "command", "nginx")
		cmdReplicaSet  = commandWorkload("ReplicaSet", "command", "nginx")
		cmdDaemonSet   = commandWorkload("ReplicaSet", "command", "nginx")
		cmdTwo         = commandWorkload("Deployment", "command", "nginx", "nginx1")
	)
	tests := []struct {
		name, target      string
		obj               map[string]any
		container, opName string
		value             []string
		want              []wantListOp
	}{
		{"CommandArgsOverrider, resource kind: Deployment, operator: add", "command", cmdDeployment, "nginx", "add", []string{"&& echo 'hello karmada'"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v", "-t", "&& echo 'hello karmada'"}}}},
		{"CommandArgsOverrider, resource kind: Deployment, operator: remove", "command", cmdDeployment, "nginx", "remove", []string{"-t"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v"}}}},
		{"CommandArgsOverrider, remove value is empty, resource kind: Deployment, operator: remove", "command", cmdDeployment, "nginx", "remove", []string{}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v", "-t"}}}},
		{"CommandArgsOverrider, resource has more than one container", "command", cmdTwo, "nginx", "add", []string{"echo 'hello karmada'"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v", "-t", "echo 'hello karmada'"}}}},
		{"CommandArgsOverrider, resource has more than one container", "command", cmdTwo, "nginx", "remove", []string{"-t"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v"}}}},
		{"CommandArgsOverrider resource kind: Pod, operator: add", "command", cmdPod, "nginx", "add", []string{"echo 'hello karmada'"}, []wantListOp{{"replace", "/spec/containers/0/command", []string{"nginx", "-v", "-t", "echo 'hello karmada'"}}}},
		{"CommandArgsOverrider, resource kind: StatefulSet, operator: add", "command", cmdStatefulSet, "nginx", "add", []string{"echo 'hello karmada'"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v", "-t", "echo 'hello karmada'"}}}},
		{"CommandArgsOverrider, resource kind: ReplicaSet, operator: remove", "command", cmdReplicaSet, "nginx", "remove", []string{"-t"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v"}}}},
		{"CommandArgsOverrider, resource kind: DaemonSet, operator: remove", "command", cmdDaemonSet, "nginx", "remove", []string{"-t"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/command", []string{"nginx", "-v"}}}},
		{"CommandArgsOverrider, resource kind: Deployment, operator: replace", "args", argsDeployment, "nginx", "add", []string{"&& echo 'hello karmada'"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/args", []string{"nginx", "-v", "-t", "&& echo 'hello karmada'"}}}},
		{"CommandArgsOverrider, resource kind: Deployment, operator: replace", "args", argsDeployment, "nginx", "remove", []string{"-t"}, []wantListOp{{"replace", "/spec/template/spec/containers/0/args", []string{"nginx", "-v"}}}},
		{"CommandArgsOverrider, resource kind: Deployment, operator: add", "args", cmdDeployment, "nginx", "add", []string{"-t"}, []wantListOp{{"add", "/spec/template/spec/containers/0/args", []string{"-t"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &CommandArgsOverrider{ContainerName: tt.container, Operator: tt.opName, Value: tt.value}
			ops, err := commandArgsPatches(manifestCopy(tt.obj), tt.target, o)
			if err != nil {
				t.Fatal(err)
			}
			var got []wantListOp
			for _, op := range ops {
				got = append(got, wantListOp{op.op, op.path, toStrings(op.value)})
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(wantListOp{})); diff != "" {
				t.Errorf("patches (-want +got):\n%s", diff)
			}
		})
	}
}

func toStrings(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			out[i], _ = e.(string)
		}
		return out
	}
	return nil
}

func manifestCopy(m map[string]any) map[string]any {
	out, _ := manifest.DeepCopy(m).(map[string]any)
	return out
}
