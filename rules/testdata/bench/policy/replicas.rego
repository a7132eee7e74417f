package main

warn_replicas contains msg if {
	input.kind == "Deployment"
	startswith(drydock.context().cluster, "prod")
	input.spec.replicas < 2
	msg := sprintf("%s: %d replica in production", [input.metadata.name, input.spec.replicas])
}

exception contains ["run_as_root"] if {
	input.metadata.labels["allow-root"] == "true"
}
