package main

import data.lib

deny_no_latest contains msg if {
	some c in lib.containers
	endswith(c.image, ":latest")
	msg := sprintf("container %s uses the latest tag", [c.name])
}

violation_registry contains result if {
	some c in lib.containers
	not lib.allowed_registry(c.image)
	result := {
		"msg": sprintf("container %s: image %s is not from an allowed registry", [c.name, c.image]),
		"severity": "high",
		"details": {"replicas": input.spec.replicas, "ratio": 0.5},
	}
}

warn_no_limits contains msg if {
	some c in lib.containers
	not c.resources.limits
	msg := sprintf("container %s has no resource limits", [c.name])
}

deny contains msg if {
	input.kind == "Deployment"
	input.spec.replicas > data.limits.max_replicas
	msg := sprintf("%d replicas is more than %d", [input.spec.replicas, data.limits.max_replicas])
}

# A second body of deny: conftest counts it as one more test.
deny contains "a Deployment needs replicas" if {
	input.kind == "Deployment"
	not input.spec.replicas
}

# The render context comes from drydock.context(), not from input.
deny_prod_debug contains msg if {
	ctx := drydock.context()
	startswith(ctx.cluster, "prod")
	input.metadata.labels.debug == "true"
	msg := sprintf("debug on in cluster %s (%s, application %s, component %s, namespace %s)", [ctx.cluster, ctx.source, ctx.application, ctx.component, ctx.namespace])
}

exception contains rules if {
	input.metadata.labels["allow-latest"] == "true"
	rules := ["no_latest"]
}
