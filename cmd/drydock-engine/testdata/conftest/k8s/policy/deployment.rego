package main

deny contains msg if {
	input.kind == "Deployment"
	not input.spec.template.spec.securityContext.runAsNonRoot
	msg := sprintf("Deployment %s: containers must not run as root", [input.metadata.name])
}

deny_latest contains {"msg": msg, "details": {"image": c.image}, "severity": "high"} if {
	input.kind == "Deployment"
	some c in input.spec.template.spec.containers
	endswith(c.image, ":latest")
	msg := sprintf("Deployment %s: container %s uses :latest", [input.metadata.name, c.name])
}

violation contains msg if {
	input.kind == "Service"
	input.spec.type == "NodePort"
	msg := sprintf("Service %s: NodePort is not allowed", [input.metadata.name])
}

warn contains msg if {
	input.kind == "Deployment"
	not input.metadata.labels.team
	msg := sprintf("Deployment %s has no team label", [input.metadata.name])
}

warn_list contains msg if {
	input.kind == "List"
	msg := sprintf("a List of %d items is one document", [count(input.items)])
}
