package lib

containers contains c if {
	some c in input.spec.template.spec.containers
}

allowed_registry(image) if {
	some r in data.nested.registries
	startswith(image, r)
}
