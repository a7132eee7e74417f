// Package policy owns KubeVela's built-in policies: their specs, typed as
// KubeVela's structs and decoded as KubeVela decodes them (failing in its
// words), and what a deploy step does with them: the placements of
// topology policies, the copies of replication policies; and the resource
// keeper's check of the resource policies (apply-once, garbage-collect,
// ...), which change no manifest.
//
// It is not the rendering of policies a PolicyDefinition defines
// (render/cueval), the deploy step that applies these (render/workflow),
// nor override policies, whose spec and component patches (which
// env-binding policies reuse) are overrides/kubevela's.
package policy

import (
	"github.com/drydock-dev/drydock/manifest"
)

// builtin are the policy types KubeVela's parser knows without a
// PolicyDefinition.
var builtin = map[string]bool{
	"garbage-collect": true, "apply-once": true, "shared-resource": true, "take-over": true, "read-only": true,
	"resource-update": true, "env-binding": true, "topology": true, "replication": true, "debug": true, "override": true,
}

// Builtin reports whether KubeVela's parser knows policies of type typ
// without a PolicyDefinition.
func Builtin(typ string) bool { return builtin[typ] }

// BuiltinTypes are the policy types Builtin knows, sorted.
func BuiltinTypes() []string { return manifest.SortedKeys(builtin) }

// AppliedByDeploy reports whether typ is one of the policy types a deploy
// step applies (topology, override, replication), which this package and
// overrides/kubevela implement; such a policy renders nothing of its own.
func AppliedByDeploy(typ string) bool {
	switch typ {
	case "topology", "override", "replication":
		return true
	}
	return false
}

// runtimeOnly are the policy types that only steer a live controller.
var runtimeOnly = map[string]bool{
	"apply-once": true, "garbage-collect": true, "shared-resource": true, "take-over": true,
	"read-only": true, "resource-update": true, "debug": true, "envbinding": true, "env-binding": true,
}

// RuntimeOnly reports whether policies of type typ only steer a live
// controller and change no manifest: drydock accepts and records them
// and, without a PolicyDefinition template, renders nothing for them.
func RuntimeOnly(typ string) bool { return runtimeOnly[typ] }
