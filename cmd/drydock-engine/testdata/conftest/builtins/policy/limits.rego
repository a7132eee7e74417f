package main

deny contains msg if {
	some c in input.spec.template.spec.containers
	to_number(c.resources.limits.cpu) > 2
	msg := sprintf("%s: cpu limit over 2", [c.name])
}

deny contains msg if {
	object.get(input.metadata, "name", "") == "forbidden"
	msg := "forbidden name"
}
