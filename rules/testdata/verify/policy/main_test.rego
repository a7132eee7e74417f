package main

deployment(image) := {"kind": "Deployment", "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "app", "image": image}]}}}}

test_latest_denied if {
	count(deny_no_latest) == 1 with input as deployment("web:latest")
}

test_pinned_allowed if {
	count(deny_no_latest) == 0 with input as deployment("web:1.2")
}

test_prod_replicas if {
	print("min", data.min_prod_replicas)
	deny_prod_replicas["too few replicas in production"] with input as deployment("web:1.2")
		with drydock.context as {"cluster": "prod-eu", "namespace": "", "application": "", "component": "", "source": ""}
}

# Fails: the context is empty in tests unless mocked.
test_prod_replicas_unmocked if {
	deny_prod_replicas["too few replicas in production"] with input as deployment("web:1.2")
}

todo_test_later if {
	false
}
