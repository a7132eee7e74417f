package other

deny contains msg if {
	msg := sprintf("other: %s in %s", [input.kind, data.conftest.file.name])
}
