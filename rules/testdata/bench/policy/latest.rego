package main

deny_no_latest contains msg if {
	some c in input.spec.template.spec.containers
	endswith(c.image, ":latest")
	msg := sprintf("%s: container %s uses the latest tag", [input.metadata.name, c.name])
}
