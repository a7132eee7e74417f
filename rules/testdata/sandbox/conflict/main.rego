package main

name := "a" if input.kind == "Pod"

name := "b" if input.metadata.name == "first"

deny contains msg if {
	name == "zzz"
	msg := "never"
}
