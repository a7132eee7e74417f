package schemas

import (
	"fmt"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// served lists, per core.oam.dev kind, the versions KubeVela v1.11's CRDs
// serve (charts/vela-core/crds/core.oam.dev_*.yaml, `served: true`).
var served = map[string][]string{
	"Application":            {"v1beta1"},
	"Policy":                 {"v1alpha1"},
	"Workflow":               {"v1alpha1"},
	"ComponentDefinition":    {"v1beta1"},
	"TraitDefinition":        {"v1beta1"},
	"PolicyDefinition":       {"v1beta1"},
	"WorkflowStepDefinition": {"v1beta1"},
	"WorkloadDefinition":     {"v1alpha2", "v1beta1"},
}

// Served refuses a core.oam.dev object of a version its CRD does not
// serve, in the words the API server's REST mapping gives kubectl:
// `no matches for kind "Application" in version "core.oam.dev/v1alpha2"`.
// Other groups and kinds pass.
func Served(obj *manifest.Object) error {
	versions, ok := served[obj.Kind()]
	if !ok || manifest.Group(obj.APIVersion()) != "core.oam.dev" {
		return nil
	}
	for _, v := range versions {
		if obj.APIVersion() == "core.oam.dev/"+v {
			return nil
		}
	}
	return manifest.At(obj.FieldPos(fieldpath.New("apiVersion")), "%w", &violation{msg: fmt.Sprintf(
		"no matches for kind %q in version %q (KubeVela v1.11 serves %s)", obj.Kind(), obj.APIVersion(), servedList(obj.Kind()))})
}

func servedList(kind string) string {
	out := ""
	for i, v := range served[kind] {
		if i > 0 {
			out += " and "
		}
		out += fmt.Sprintf("core.oam.dev/%s", v)
	}
	return out
}
