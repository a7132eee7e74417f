package main

deny[msg] {
	input.kind == "Pod"
	msg := sprintf("pod %s: use a Deployment", [input.metadata.name])
}

warn_v0[{"msg": "v0 warning", "n": 1}] {
	input.kind == "Pod"
}
