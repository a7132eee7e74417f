package main

# conftest --combine: one input, the list of every document with its path.
deny contains msg if {
	msg := sprintf("%d entries: %v", [count(input), [sprintf("%s %v", [e.path, e.contents]) | some e in input]])
}

deny contains msg if {
	some e in input
	object.keys(e) != {"path", "contents"}
	msg := sprintf("entry keys %v", [object.keys(e)])
}

warn contains msg if {
	msg := sprintf("data.conftest.file.name is %s", [data.conftest.file.name])
}
