package main

deny contains msg if {
	resp := http.send({"method": "GET", "url": "https://example.com/allowed-images"})
	not input.spec.image in resp.body
	msg := "image not allowed"
}
