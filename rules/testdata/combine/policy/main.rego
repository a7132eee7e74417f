package main

# Every Deployment needs a Service of the same name in its namespace.
deny contains msg if {
	some d in input
	d.contents.kind == "Deployment"
	not has_service(d.contents.metadata.namespace, d.contents.metadata.name)
	msg := sprintf("%s: no Service for Deployment %s in cluster %s", [d.path, d.contents.metadata.name, drydock.context().cluster])
}

has_service(ns, name) if {
	some s in input
	s.contents.kind == "Service"
	s.contents.metadata.namespace == ns
	s.contents.metadata.name == name
}

warn_paths contains concat(",", [d.path | some d in input])
