package main

test_calls_http if {
	http.send({"method": "GET", "url": "https://example.com"}).status_code == 200
}
