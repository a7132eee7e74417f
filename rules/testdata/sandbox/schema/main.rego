package main

deny contains msg if {
	[ok, _] := json.match_schema(input, {"$ref": "file:///etc/passwd"})
	not ok
	msg := "schema"
}
