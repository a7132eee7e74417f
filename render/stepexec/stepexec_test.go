package stepexec

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// outcome is what a step left, in a comparable form.
type outcome struct {
	Trace, Calls []string
	Err          string
	// Value is the JSON of Result.Value at the case's field.
	Value                 string
	Message               string
	Suspended, Terminated bool
}

func runCase(t *testing.T, h *fakeHost, tmpl string, props map[string]any, stop bool, field string) outcome {
	t.Helper()
	var o outcome
	res, err := Run(h, Step{Name: "s", Type: "t", Template: tmpl, TemplateFile: "t.cue", Properties: props,
		Context: map[string]any{"name": "app", "namespace": "ns", "appName": "app", "stepName": "s"}},
		Options{StopAtSuspend: stop, Trace: func(l string) { o.Trace = append(o.Trace, strings.TrimSpace(l)) }})
	o.Calls = h.calls
	if err != nil {
		o.Err = err.Error()
		return o
	}
	o.Message, o.Suspended, o.Terminated = res.Message, res.Suspended, res.Terminated
	if field != "" {
		var v any = res.Value
		for _, k := range strings.Split(field, ".") {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		b, _ := json.Marshal(v)
		o.Value = string(b)
	}
	return o
}

// TestBuiltinActions: the workspace, util and time providers, and the
// order and the stops of the resolve loop.
func TestBuiltinActions(t *testing.T) {
	tests := []struct {
		name, tmpl string
		props      map[string]any
		stop       bool
		field      string
		want       outcome
	}{
		{"message", `import "vela/builtin"
parameter: message: string
msg: builtin.#Message & {$params: parameter}`, map[string]any{"message": "hello"}, false, "",
			outcome{Trace: []string{"message: hello"}, Message: "hello"}},
		{"wait holds", `import "vela/builtin"
w: builtin.#ConditionalWait & {$params: continue: true}`, nil, false, "",
			outcome{Trace: []string{"wait at w: condition holds"}}},
		{"wait false taken as satisfied, then the next action", `import "vela/builtin"
w: builtin.#ConditionalWait & {$params: {continue: false, message: "waiting"}}
m: builtin.#Message & {$params: message: "after"}`, nil, false, "",
			outcome{Trace: []string{"wait at w: condition false: taken as satisfied", "message: after"}, Message: "after"}},
		{"wait false stops", `import "vela/builtin"
w: builtin.#ConditionalWait & {$params: {continue: false, message: "waiting"}}
m: builtin.#Message & {$params: message: "after"}`, nil, true, "",
			outcome{Trace: []string{"wait at w: condition false: stopping (--stop-at-suspend)"}, Message: "waiting", Suspended: true}},
		{"wait on what only a live cluster knows", `import "vela/builtin"
x: {}
w: builtin.#ConditionalWait & {$params: continue: x.status == "ok"}`, nil, false, "",
			outcome{Trace: []string{"wait at w: its condition is not known offline: taken as satisfied"}}},
		{"suspend resumed", `import "vela/builtin"
s: builtin.#Suspend & {$params: duration: "1m"}`, nil, false, "",
			outcome{Trace: []string{"suspended at s: taken as resumed"}, Message: "Suspended by field s"}},
		{"suspend stops", `import "vela/builtin"
s: builtin.#Suspend & {$params: message: "hold"}`, nil, true, "",
			outcome{Trace: []string{"suspended at s: stopping (--stop-at-suspend)"}, Message: "hold", Suspended: true}},
		{"suspend bad duration", `import "vela/builtin"
s: builtin.#Suspend & {$params: duration: "soon"}`, nil, false, "",
			outcome{Err: `function call error for s: failed to parse duration soon: time: invalid duration "soon"`}},
		{"fail", `import "vela/builtin"
f: builtin.#Fail & {$params: message: "no"}`, nil, false, "",
			outcome{Trace: []string{"fail at f: no"}, Err: "step failed: no"}},
		{"break", `import "vela/builtin"
b: builtin.#Break & {$params: message: "done"}
m: builtin.#Message & {$params: message: "never"}`, nil, false, "",
			outcome{Trace: []string{"break at b: the workflow terminates"}, Message: "done", Terminated: true}},
		{"vars", `import "vela/builtin"
put: builtin.#DoVar & {$params: {method: "Put", path: "v", value: 3}}
get: builtin.#DoVar & {$params: {method: "Get", path: "v"}}
out: get.$returns.value`, nil, false, "out",
			outcome{Trace: []string{"var put v", "var get v"}, Value: "3"}},
		{"var missing", `import "vela/builtin"
get: builtin.#DoVar & {$params: {path: "nope"}}`, nil, false, "",
			outcome{Err: "function call error for get: var nope not found"}},
		{"@step orders actions", `import "vela/builtin"
a: builtin.#Message & {$params: message: "second"} @step(2)
b: builtin.#Message & {$params: message: "first"} @step(1)`, nil, false, "",
			outcome{Trace: []string{"message: first", "message: second"}, Message: "second"}},
		{"util", `import "vela/util"
import "encoding/base64"
s: util.#ConvertString & {$params: bt: base64.Decode(null, "aGk=")}
l: util.#Log & {$params: data: "text"}
l2: util.#Log & {$params: data: {a: 1}}
l3: util.#Log & {$params: source: url: "https://logs"}
p: util.#PatchK8sObject & {$params: {value: {spec: {x: "y"}}, patch: {spec: replicas: 2}}}
out: {str: s.$returns.str, patched: p.$returns.result}`, nil, false, "out",
			outcome{Trace: []string{"log: text", `log: {"a":1}`, `log source {"url":"https://logs"}: not collected offline`, "patch-k8s-object at p"}, Value: `{"patched":{"spec":{"replicas":2,"x":"y"}},"str":"hi"}`}},
		{"time", `import "vela/time"
ts: time.#DateToTimestamp & {$params: date: "2024-01-02T03:04:05Z"}
d: time.#TimestampToDate & {$params: timestamp: 0}
out: {stamp: ts.$returns.timestamp, date: d.$returns.date}`, nil, false, "out",
			outcome{Value: `{"date":"1970-01-01T00:00:00Z","stamp":1704164645}`}},
		{"bad date", `import "vela/time"
ts: time.#DateToTimestamp & {$params: date: "yesterday"}`, nil, false, "",
			outcome{Err: `function call error for ts: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`}},
		{"legacy op actions", `import "vela/op"
w: op.#ConditionalWait & {continue: false}
f: op.#Steps & {m: op.#Message & {message: "legacy"}}
s: op.#ConvertString & {bt: 'hi'}
out: s.str`, nil, false, "out",
			outcome{Trace: []string{"wait at w: condition false: taken as satisfied", "message: legacy"}, Message: "legacy", Value: `"hi"`}},
		{"unknown package", `import "vela/nope"
x: 1`, nil, false, "",
			outcome{Err: `template: import "vela/nope": no such package (KubeVela's are vela/builtin, vela/config, vela/email, vela/http, vela/kube, vela/metrics, vela/multicluster, vela/oam, vela/op, vela/ql, vela/query, vela/terraform, vela/time, vela/util)`}},
		{"unknown provider", `x: {#do: "go", #provider: "nope"}`, nil, false, "",
			outcome{Err: "function call error for x: provider nope not found"}},
		{"unknown function", `x: {#do: "go", #provider: "kube"}
y: {#do: "go", #provider: "op"}`, nil, false, "",
			outcome{Err: "function call error for x: function go not found in provider kube"}},
		{"unanswered query", `import "vela/ql"
x: ql.#SearchEvents & {parameter: {}}`, nil, false, "",
			outcome{Err: "function call error for x: query.searchEvents reads the live state of clusters, which drydock does not have"}},
		// kubevela/pkg v1.10.0 cue/cuex/compiler.go resolves the actions
		// of a value in error; kubevela/workflow v0.6.4
		// pkg/tasks/custom/task.go fails the step on taskv.Err() only on
		// its first run, and the retry succeeds.
		{"template error", `import "vela/builtin"
x: 1 & 2
m: builtin.#Message & {$params: message: "on"}`, nil, false, "",
			outcome{Trace: []string{"message: on", "value in error: x: conflicting values 2 and 1: the step fails once and succeeds on its retry, as in KubeVela"}, Message: "on"}},
		{"syntax error", `x: {`, nil, false, "",
			outcome{Err: "template: expected '}', found 'EOF'"}},
		{"value in error after the actions", `p: parameter.a + 1
parameter: a: int`, map[string]any{"a": "x"}, false, "",
			outcome{Trace: []string{`value in error: p: invalid operands "x" and 1 to '+' (type string and int): the step fails once and succeeds on its retry, as in KubeVela`}}},
		{"params not concrete", `import "vela/kube"
a: kube.#Apply & {$params: value: {kind: string}}`, nil, false, "",
			outcome{Err: "function call error for a: cue: marshal error: a.$params.value.kind: cannot convert incomplete value \"string\" to JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCase(t, &fakeHost{}, tt.tmpl, tt.props, tt.stop, tt.field)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
