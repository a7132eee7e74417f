package deftest

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// check is one assertion over what the test rendered (objs) or the
// render's error: "" when it holds, else what differs.
func (a Assert) check(got rendered, renderErr error) string {
	switch {
	case a.Error != "" || a.ErrorRegex != "":
		if renderErr == nil {
			return "the render succeeded; want an error"
		}
		msg := manifest.Format(renderErr, nil)
		if a.Error != "" && !strings.Contains(msg, a.Error) {
			return fmt.Sprintf("error %q does not contain %q", msg, a.Error)
		}
		if a.ErrorRegex != "" {
			re, err := regexp.Compile(a.ErrorRegex)
			if err != nil {
				return fmt.Sprintf("errorRegex %q: %v", a.ErrorRegex, err)
			}
			if !re.MatchString(msg) {
				return fmt.Sprintf("error %q does not match %q", msg, a.ErrorRegex)
			}
		}
		return ""
	case renderErr != nil:
		return fmt.Sprintf("the render failed: %s", manifest.Format(renderErr, nil))
	case len(a.HasObjects) > 0:
		for _, want := range a.HasObjects {
			if !slices.ContainsFunc(got.objs, func(o *manifest.Object) bool {
				return o.Kind() == want.Kind && (want.Name == "" || o.Name() == want.Name)
			}) {
				return fmt.Sprintf("no %s %s among the rendered objects (%s)", want.Kind, want.Name, got)
			}
		}
		return ""
	}
	path := cmp.Or(a.Equal.at(), a.NotEqual.at(), a.Exists.at(), a.NotExists.at(), a.MatchRegex.at(), a.Contains.at(), a.LengthEqual.at())
	v, ok, err := got.lookup(path)
	if err != nil {
		return err.Error()
	}
	switch {
	case a.Exists != nil:
		if !ok {
			return fmt.Sprintf("%s does not exist", path)
		}
	case a.NotExists != nil:
		if ok {
			return fmt.Sprintf("%s exists: %s", path, show(v))
		}
	case !ok:
		return fmt.Sprintf("%s does not exist", path)
	case a.Equal != nil:
		if !equalValues(v, a.Equal.Value) {
			return fmt.Sprintf("%s is %s, want %s", path, show(v), show(a.Equal.Value))
		}
	case a.NotEqual != nil:
		if equalValues(v, a.NotEqual.Value) {
			return fmt.Sprintf("%s is %s, want anything else", path, show(v))
		}
	case a.MatchRegex != nil:
		re, err := regexp.Compile(a.MatchRegex.Pattern)
		if err != nil {
			return fmt.Sprintf("matchRegex %q: %v", a.MatchRegex.Pattern, err)
		}
		s, isString := v.(string)
		if !isString || !re.MatchString(s) {
			return fmt.Sprintf("%s is %s, which does not match %q", path, show(v), a.MatchRegex.Pattern)
		}
	case a.Contains != nil:
		switch g := v.(type) {
		case []any:
			for _, item := range g {
				if equalValues(item, a.Contains.Value) {
					return ""
				}
			}
		case string:
			if s, ok := a.Contains.Value.(string); ok && strings.Contains(g, s) {
				return ""
			}
		case map[string]any:
			if k, ok := a.Contains.Value.(string); ok {
				if _, has := g[k]; has {
					return ""
				}
			}
		}
		return fmt.Sprintf("%s is %s, which does not contain %s", path, show(v), show(a.Contains.Value))
	case a.LengthEqual != nil:
		n := -1
		switch g := v.(type) {
		case []any:
			n = len(g)
		case map[string]any:
			n = len(g)
		case string:
			n = len(g)
		}
		if n != a.LengthEqual.Count {
			return fmt.Sprintf("%s has length %d, want %d", path, n, a.LengthEqual.Count)
		}
	}
	return ""
}

// KubeVela's labels on what a component renders (render.Label*: deftest
// reaches render only through pipeline).
const (
	labelComponent    = "app.oam.dev/component"
	labelResourceType = "app.oam.dev/resourceType"
	labelOutput       = "trait.oam.dev/resource"
)

// rendered is what a definition test rendered (the observed state
// merged in): every object, and among them the workload (the tested
// policy's output in a policy test) and the outputs by name.
type rendered struct {
	objs     []*manifest.Object
	workload *manifest.Object
	outputs  map[string]*manifest.Object
}

// classify finds the workload and the outputs among objs; policy is the
// tested policy ("" for none).
func classify(objs []*manifest.Object, policy string) rendered {
	got := rendered{objs: objs, outputs: map[string]*manifest.Object{}}
	for _, o := range objs {
		labels := o.Labels()
		switch {
		case policy != "": // a policy's output: named after it, no resource type
			if labels[labelComponent] == policy && labels[labelResourceType] == "" {
				got.workload = o
			}
		case labels[labelResourceType] == "WORKLOAD":
			got.workload = o
		}
		if name := labels[labelOutput]; name != "" {
			got.outputs[name] = o
		}
	}
	return got
}

// observe merges what the test says the cluster holds into the rendered
// objects (copies): observed.output into the workload, observed.outputs.
// <name> into that output.
func observe(entries []cluster.Entry, o Observed) []*manifest.Object {
	out := make([]*manifest.Object, len(entries))
	for i, e := range entries {
		out[i] = e.Object
		labels := e.Object.Labels()
		var extra []map[string]any
		if labels[labelResourceType] == "WORKLOAD" && o.Output != nil {
			extra = append(extra, o.Output)
		}
		if m, ok := o.Outputs[labels[labelOutput]].(map[string]any); ok && labels[labelOutput] != "" {
			extra = append(extra, m)
		}
		if len(extra) > 0 {
			out[i] = &manifest.Object{Data: manifest.DeepCopy(e.Object.Data).(map[string]any), Pos: e.Object.Pos}
			for _, m := range extra {
				mergeInto(out[i].Data, m)
			}
		}
	}
	return out
}

// lookup finds path in the rendered objects: output (or workload) is the
// workload, outputs.<name> the output of that name.
func (got rendered) lookup(path string) (any, bool, error) {
	obj := got.workload
	head, rest, _ := strings.Cut(path, ".")
	switch head {
	case "output", "workload":
	case "outputs":
		var name string
		name, rest, _ = strings.Cut(rest, ".")
		if obj = got.outputs[name]; obj == nil {
			return nil, false, fmt.Errorf("no output %q among the rendered objects (%s)", name, got)
		}
	default:
		return nil, false, fmt.Errorf("path %q: start with output, workload or outputs.<name>", path)
	}
	if obj == nil {
		return nil, false, fmt.Errorf("no workload among the rendered objects (%s)", got)
	}
	if rest == "" {
		return obj.Data, true, nil
	}
	fp, err := fieldpath.Parse(rest)
	if err != nil {
		return nil, false, nil
	}
	v, ok := fieldpath.Get(obj.Data, fp)
	return v, ok, nil
}

// String lists the rendered objects for a message.
func (got rendered) String() string {
	if len(got.objs) == 0 {
		return "none"
	}
	names := make([]string, len(got.objs))
	for i, o := range got.objs {
		names[i] = o.Kind() + " " + o.Name()
		if r := o.Labels()[labelOutput]; r != "" {
			names[i] += " (output " + r + ")"
		}
	}
	return strings.Join(names, ", ")
}

// statusContext is the template context KubeVela's controller gives a
// definition's status: the workload as output, the other objects by
// output name, and the component's context fields.
func (got rendered) statusContext(t Test) map[string]any {
	outputs := map[string]any{}
	for name, o := range got.outputs {
		outputs[name] = o.Data
	}
	ctx := map[string]any{"name": t.Context.Name, "appName": t.Context.AppName, "namespace": t.Context.Namespace,
		"cluster": t.Context.Cluster, "outputs": outputs}
	if got.workload != nil {
		ctx["output"] = got.workload.Data
	}
	return ctx
}

// equalValues compares a rendered value with an expected one as YAML
// does: numbers by value.
func equalValues(got, want any) bool {
	a, _ := yaml.Marshal(got)
	b, _ := yaml.Marshal(want)
	return string(a) == string(b)
}

func show(v any) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSpace(string(data))
	if strings.Contains(s, "\n") {
		return "{" + strings.Join(strings.Fields(s), " ") + "}"
	}
	return s
}

// statusOf is a definition's health and status message (and why they
// could not be evaluated).
type statusOf struct {
	healthy               bool
	message               string
	details               map[string]string
	healthErr, messageErr error
}

// mergeInto merges src into dst, mappings key by key.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
		}
		dst[k] = manifest.DeepCopy(v)
	}
}

// checkStatus is a healthy or message assertion.
func (a Assert) checkStatus(st statusOf, renderErr error) string {
	switch {
	case renderErr != nil:
		return fmt.Sprintf("the render failed: %s", manifest.Format(renderErr, nil))
	case a.Healthy != nil && st.healthy != *a.Healthy:
		msg := fmt.Sprintf("healthy is %v, want %v", st.healthy, *a.Healthy)
		if st.healthErr != nil {
			msg += fmt.Sprintf(" (%s)", manifest.Format(st.healthErr, nil))
		}
		return msg
	case a.Details != nil:
		for _, k := range manifest.SortedKeys(a.Details) {
			want := fmt.Sprint(a.Details[k])
			if got, ok := st.details[k]; !ok || got != want {
				return fmt.Sprintf("status.details.%s is %q, want %q (details: %v)", k, got, want, st.details)
			}
		}
	case a.Message != nil && st.message != *a.Message:
		msg := fmt.Sprintf("the status message is %q, want %q", st.message, *a.Message)
		if st.messageErr != nil {
			msg += fmt.Sprintf(" (%s)", manifest.Format(st.messageErr, nil))
		}
		return msg
	}
	return ""
}
