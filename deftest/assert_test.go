package deftest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// obj is an object with labels (key=value pairs) and data merged in.
func obj(kind, name string, labels map[string]any, data map[string]any) *manifest.Object {
	d := map[string]any{"kind": kind, "metadata": map[string]any{"name": name, "labels": labels}}
	for k, v := range data {
		d[k] = v
	}
	return manifest.New(d)
}

// sample is what a component test renders: a workload and an output
// named svc.
func sample() rendered {
	return classify([]*manifest.Object{
		obj("Deployment", "web", map[string]any{labelResourceType: "WORKLOAD"}, map[string]any{"spec": map[string]any{
			"replicas": int64(2), "image": "nginx:1.27", "ports": []any{int64(80), int64(443)}, "opts": map[string]any{"a": "b"}}}),
		obj("Service", "web", map[string]any{labelOutput: "svc"}, map[string]any{"spec": map[string]any{"type": "ClusterIP"}}),
	}, "")
}

func TestCheck(t *testing.T) {
	renderErr := errors.New(`application "test" component "web": parameter.image: incomplete value string`)
	tests := []struct {
		name   string
		assert Assert
		err    error
		want   string
	}{
		{"equal", Assert{Equal: &pathValue{"output.spec.replicas", 2.0}}, nil, ""},
		{"equal differs", Assert{Equal: &pathValue{"output.spec.replicas", 3}}, nil, "output.spec.replicas is 2, want 3"},
		{"equal missing", Assert{Equal: &pathValue{"output.spec.nope", 3}}, nil, "output.spec.nope does not exist"},
		{"notEqual", Assert{NotEqual: &pathValue{"output.spec.replicas", 3}}, nil, ""},
		{"notEqual same", Assert{NotEqual: &pathValue{"workload.spec.replicas", 2}}, nil, "workload.spec.replicas is 2, want anything else"},
		{"exists", Assert{Exists: &pathOnly{"outputs.svc.spec.type"}}, nil, ""},
		{"exists not", Assert{Exists: &pathOnly{"output.status"}}, nil, "output.status does not exist"},
		{"notExists", Assert{NotExists: &pathOnly{"output.status"}}, nil, ""},
		{"notExists there", Assert{NotExists: &pathOnly{"output.spec.opts"}}, nil, "output.spec.opts exists: a: b"},
		{"the whole workload", Assert{Exists: &pathOnly{"output"}}, nil, ""},
		{"matchRegex", Assert{MatchRegex: &pathRegex{"output.spec.image", `:1\.\d+$`}}, nil, ""},
		{"matchRegex not", Assert{MatchRegex: &pathRegex{"output.spec.image", `latest`}}, nil, `output.spec.image is nginx:1.27, which does not match "latest"`},
		{"matchRegex a number", Assert{MatchRegex: &pathRegex{"output.spec.replicas", `2`}}, nil, `output.spec.replicas is 2, which does not match "2"`},
		{"matchRegex bad", Assert{MatchRegex: &pathRegex{"output.spec.image", `(`}}, nil, "matchRegex \"(\": error parsing regexp: missing closing ): `(`"},
		{"contains item", Assert{Contains: &pathValue{"output.spec.ports", 443.0}}, nil, ""},
		{"contains substring", Assert{Contains: &pathValue{"output.spec.image", "nginx"}}, nil, ""},
		{"contains key", Assert{Contains: &pathValue{"output.spec.opts", "a"}}, nil, ""},
		{"contains not", Assert{Contains: &pathValue{"output.spec.ports", 8080}}, nil, "output.spec.ports is {- 80 - 443}, which does not contain 8080"},
		{"contains in a number", Assert{Contains: &pathValue{"output.spec.replicas", 2}}, nil, "output.spec.replicas is 2, which does not contain 2"},
		{"lengthEqual list", Assert{LengthEqual: &pathCount{"output.spec.ports", 2}}, nil, ""},
		{"lengthEqual map", Assert{LengthEqual: &pathCount{"output.spec.opts", 1}}, nil, ""},
		{"lengthEqual string", Assert{LengthEqual: &pathCount{"output.spec.image", 3}}, nil, "output.spec.image has length 10, want 3"},
		{"lengthEqual number", Assert{LengthEqual: &pathCount{"output.spec.replicas", 1}}, nil, "output.spec.replicas has length -1, want 1"},
		{"hasObjects", Assert{HasObjects: []objectRef{{Kind: "Service"}, {Kind: "Deployment", Name: "web"}}}, nil, ""},
		{"hasObjects missing", Assert{HasObjects: []objectRef{{Kind: "Deployment", Name: "api"}}}, nil,
			"no Deployment api among the rendered objects (Deployment web, Service web (output svc))"},
		{"an unknown output", Assert{Exists: &pathOnly{"outputs.db.spec"}}, nil,
			`no output "db" among the rendered objects (Deployment web, Service web (output svc))`},
		{"a path of nothing rendered", Assert{Exists: &pathOnly{"spec.replicas"}}, nil, `path "spec.replicas": start with output, workload or outputs.<name>`},
		{"error", Assert{Error: "incomplete"}, renderErr, ""},
		{"error differs", Assert{Error: "conflicting"}, renderErr, `error "application \"test\" component \"web\": parameter.image: incomplete value string" does not contain "conflicting"`},
		{"errorRegex", Assert{ErrorRegex: `parameter\.image`}, renderErr, ""},
		{"errorRegex differs", Assert{ErrorRegex: `^x`}, renderErr, `error "application \"test\" component \"web\": parameter.image: incomplete value string" does not match "^x"`},
		{"errorRegex bad", Assert{ErrorRegex: `[`}, renderErr, "errorRegex \"[\": error parsing regexp: missing closing ]: `[`"},
		{"error without one", Assert{Error: "x"}, nil, "the render succeeded; want an error"},
		{"a value when the render failed", Assert{Exists: &pathOnly{"output"}}, renderErr, "the render failed: " + manifest.Format(renderErr, nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sample()
			if tt.err != nil {
				got = rendered{}
			}
			if diff := cmp.Diff(tt.want, tt.assert.check(got, tt.err)); diff != "" {
				t.Errorf("check (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheckNoWorkload: a path into the workload of a render without one.
func TestCheckNoWorkload(t *testing.T) {
	got := classify([]*manifest.Object{obj("ConfigMap", "c", nil, nil)}, "")
	want := "no workload among the rendered objects (ConfigMap c)"
	if msg := (Assert{Exists: &pathOnly{"output.data"}}).check(got, nil); msg != want {
		t.Errorf("check: %q, want %q", msg, want)
	}
	if s := (rendered{}).String(); s != "none" {
		t.Errorf("String() of nothing rendered: %q, want none", s)
	}
}

// TestClassifyPolicy: in a policy test the tested policy's output (named
// after it, without a resource type) is the workload.
func TestClassifyPolicy(t *testing.T) {
	objs := []*manifest.Object{
		obj("Deployment", "web", map[string]any{labelResourceType: "WORKLOAD", labelComponent: "web"}, nil),
		obj("ResourceQuota", "quota", map[string]any{labelComponent: "quota"}, nil),
	}
	got := classify(objs, "quota")
	if got.workload != objs[1] {
		t.Errorf("workload %v, want the ResourceQuota", got.workload)
	}
}

// TestObserve: what the cluster holds is merged into copies of the
// workload and the named outputs; the rendered objects stay as they were.
func TestObserve(t *testing.T) {
	work := obj("Deployment", "web", map[string]any{labelResourceType: "WORKLOAD"}, map[string]any{"spec": map[string]any{"replicas": int64(2)}})
	svc := obj("Service", "web", map[string]any{labelOutput: "svc"}, nil)
	other := obj("ConfigMap", "c", nil, nil)
	entries := []cluster.Entry{{Object: work}, {Object: svc}, {Object: other}}
	got := observe(entries, Observed{
		Output:  map[string]any{"status": map[string]any{"readyReplicas": int64(2)}, "spec": map[string]any{"paused": true}},
		Outputs: map[string]any{"svc": map[string]any{"status": "up"}, "db": map[string]any{"status": "down"}},
	})
	wantWork := map[string]any{"kind": "Deployment", "metadata": map[string]any{"name": "web", "labels": map[string]any{labelResourceType: "WORKLOAD"}},
		"spec": map[string]any{"replicas": int64(2), "paused": true}, "status": map[string]any{"readyReplicas": int64(2)}}
	if diff := cmp.Diff(wantWork, got[0].Data); diff != "" {
		t.Errorf("workload (-want +got):\n%s", diff)
	}
	if got[1].Data["status"] != "up" {
		t.Errorf("output svc: %v, want its observed status", got[1].Data)
	}
	if got[2] != other {
		t.Error("an object nothing was observed for was copied")
	}
	if _, ok := work.Data["status"]; ok {
		t.Error("observe changed the rendered workload")
	}
}

func TestCheckStatus(t *testing.T) {
	yes, no := true, false
	msg := "Ready:2/2"
	st := statusOf{healthy: true, message: "Ready:1/2", details: map[string]string{"ready": "1", "image": "nginx"}}
	failed := statusOf{healthErr: errors.New("evaluate health status: boom"), messageErr: errors.New("evaluate customStatus.message: boom")}
	tests := []struct {
		name   string
		assert Assert
		st     statusOf
		err    error
		want   string
	}{
		{"healthy", Assert{Healthy: &yes}, st, nil, ""},
		{"not healthy", Assert{Healthy: &no}, st, nil, "healthy is true, want false"},
		{"health failed", Assert{Healthy: &yes}, failed, nil, "healthy is false, want true (evaluate health status: boom)"},
		{"message", Assert{Message: &st.message}, st, nil, ""},
		{"message differs", Assert{Message: &msg}, st, nil, `the status message is "Ready:1/2", want "Ready:2/2"`},
		{"message failed", Assert{Message: &msg}, failed, nil, `the status message is "", want "Ready:2/2" (evaluate customStatus.message: boom)`},
		{"details", Assert{Details: map[string]any{"ready": int64(1), "image": "nginx"}}, st, nil, ""},
		{"details differ", Assert{Details: map[string]any{"ready": 2}}, st, nil, `status.details.ready is "1", want "2" (details: map[image:nginx ready:1])`},
		{"details missing", Assert{Details: map[string]any{"age": "1d"}}, st, nil, `status.details.age is "", want "1d" (details: map[image:nginx ready:1])`},
		{"the render failed", Assert{Healthy: &yes}, st, errors.New("boom"), "the render failed: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.assert.checkStatus(tt.st, tt.err)); diff != "" {
				t.Errorf("checkStatus (-want +got):\n%s", diff)
			}
		})
	}
}

func TestShow(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{"x", "x"},
		{int64(3), "3"},
		{map[string]any{"a": int64(1), "b": []any{"c"}}, "{a: 1 b: - c}"},
		{func() {}, "0x"}, // not YAML: fmt's form (an address)
	} {
		got := show(tt.v)
		if _, isFunc := tt.v.(func()); isFunc {
			if len(got) < 2 || got[:2] != tt.want {
				t.Errorf("show(func) = %q, want an address", got)
			}
			continue
		}
		if got != tt.want {
			t.Errorf("show(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
