package main

deny_no_latest contains msg if {
	some c in input.spec.template.spec.containers
	endswith(c.image, ":latest")
	msg := sprintf("container %s uses the latest tag", [c.name])
}

deny_prod_replicas contains msg if {
	startswith(drydock.context().cluster, "prod")
	input.spec.replicas < data.min_prod_replicas
	msg := "too few replicas in production"
}

warn_unused contains "never tested" if {
	input.kind == "Unused"
}
