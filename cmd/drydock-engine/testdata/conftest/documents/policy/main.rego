package main

# Every document must say its kind: conftest evaluates empty documents
# (null), scalars and sequences too.
deny contains msg if {
	not input.kind
	msg := sprintf("a document without a kind: %v", [input])
}

warn contains msg if {
	input.kind == "ConfigMap"
	msg := sprintf("ConfigMap %s", [input.metadata.name])
}
