package main

violation contains {"message": "no msg key"} if {
	input.kind == "Pod"
}
