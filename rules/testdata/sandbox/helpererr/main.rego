package main

limit(x) := to_number(x)

deny contains msg if {
	limit(input.metadata.name) > 3
	msg := "big"
}
