package main

# Used by gen.sh where `conftest parse` lacks a flag (--proto-file-dirs):
# the input conftest test evaluates, as a warning's message.
warn contains msg if {
	msg := json.marshal(input)
}
