package main

warn_no_limits contains msg if {
	input.kind == "Deployment"
	some c in input.spec.template.spec.containers
	not c.resources.limits.memory
	msg := sprintf("%s: container %s has no memory limit", [input.metadata.name, c.name])
}
