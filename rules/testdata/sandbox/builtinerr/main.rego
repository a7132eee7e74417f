package main

deny contains msg if {
	to_number(input.metadata.name) > 3
	msg := "big"
}
