package cueval

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/render"
)

// The `context` KubeVela gives the templates of a component
// (pkg/cue/process: context.name, namespace, appName, components,
// clusterVersion, ...).

// baseContext is the `context` KubeVela gives a component's templates.
func baseContext(app *render.Application, comp *render.Component, pl Placement) map[string]any {
	ns := app.Namespace
	if pl.Namespace != "" {
		ns = pl.Namespace
	}
	return map[string]any{
		"name":           comp.Name,
		"namespace":      ns,
		"workflowName":   app.Annotations["app.oam.dev/workflowName"],
		"publishVersion": app.Annotations["app.oam.dev/publishVersion"],
		"appName":        app.Name,
		"appRevision":    app.RevisionName(),
		"appRevisionNum": int64(app.RevisionNum()),
		// KubeVela's component revision (render/revision) for a
		// component, set by renderComponent; "" for a policy's template.
		"revision":       "",
		"components":     contextComponents(app),
		"appLabels":      stringMap(app.Labels),
		"appAnnotations": stringMap(app.Annotations),
		"replicaKey":     pl.ReplicaKey,
		"cluster":        contextCluster(pl.Cluster),
		"clusterVersion": clusterVersionData(pl.ClusterVersion),
	}
}

// clusterVersionData is context.clusterVersion: the minor version a
// number (KubeVela's parseClusterVersion, pkg/cue/process/handle.go).
func clusterVersionData(cv ClusterVersion) map[string]any {
	minor := int64(0)
	if m := strings.TrimRight(strings.TrimSpace(cv.Minor), ".+-/?!"); m != "" {
		_, _ = fmt.Sscanf(m, "%d", &minor)
	}
	return map[string]any{"major": cv.Major, "minor": minor, "gitVersion": cv.GitVersion, "platform": cv.Platform}
}

// WorkflowContext is the process context KubeVela's controller gives a
// workflow step (generateContextDataFromApp in pkg/controller/
// core.oam.dev/v1beta1/application/generator.go through NewContext in
// pkg/cue/process/handle.go): name is the Application's, no component,
// cluster or replica key, and the hub's cluster version. The workflow
// engine adds the step's stepName, stepSessionID and spanID while the
// step runs (kubevela/workflow pkg/tasks/custom/task.go fillContext).
func WorkflowContext(app *render.Application, hub ClusterVersion) map[string]any {
	return map[string]any{
		"name":           app.Name,
		"namespace":      app.Namespace,
		"workflowName":   app.Annotations["app.oam.dev/workflowName"],
		"publishVersion": app.Annotations["app.oam.dev/publishVersion"],
		"appName":        app.Name,
		"appRevision":    app.RevisionName(),
		"appRevisionNum": int64(app.RevisionNum()),
		"revision":       "",
		"components":     nil,
		"appLabels":      stringMap(app.Labels),
		"appAnnotations": stringMap(app.Annotations),
		"replicaKey":     "",
		"cluster":        "",
		"clusterVersion": clusterVersionData(hub),
	}
}

// contextCluster is context.cluster: the placement cluster, or the hub.
func contextCluster(c string) string {
	if c == "" {
		return "local"
	}
	return c
}

// stringMap is m as context data: an app without labels or annotations
// has empty structs there, not null (KubeVela's NewContext in
// pkg/cue/process/handle.go; TestNewContextNilLabelsAndAnnotations).
func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// contextComponents is context.components: the application's components
// as KubeVela's typed ApplicationComponent marshals them.
func contextComponents(app *render.Application) []any {
	out := make([]any, 0, len(app.Components))
	for _, c := range app.Components {
		m := map[string]any{"name": c.Name, "type": c.Type}
		for _, k := range []string{"externalRevision", "properties", "dependsOn", "inputs", "outputs", "traits", "scopes"} {
			if v, ok := c.Raw[k]; ok && v != nil && !isEmpty(v) {
				m[k] = NormalizeNumbers(v)
			}
		}
		out = append(out, m)
	}
	return out
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case []any:
		return len(x) == 0
	case string:
		return x == ""
	}
	return false
}
