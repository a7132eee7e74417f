package karmada

// karmadaClusterMatchesRows are the rows of Karmada's TestClusterMatches
// (pkg/util/selector_test.go at f8fdd02), generated from its table: a
// cluster1 labelled foo=bar, zones zone1-3, region1, provider1.
var karmadaClusterMatchesRows = []struct {
	name     string
	affinity string // JSON
	want     bool
}{
	{"test cluster excluded and names", `{"exclude": ["cluster1"], "clusterNames": ["cluster1"]}`, false},
	{"test cluster excluded and label selector", `{"exclude": ["cluster1"], "labelSelector": {"matchLabels": {"foo": "bar"}}}`, false},
	{"test cluster excluded and field selector", `{"exclude": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone1", "zone2", "zone3"]}]}}`, false},
	{"test cluster names", `{"clusterNames": ["cluster1"]}`, true},
	{"test cluster names not matched", `{"clusterNames": ["cluster2"]}`, false},
	{"test cluster names and label selector", `{"clusterNames": ["cluster1"], "labelSelector": {"matchLabels": {"foo": "bar"}}}`, true},
	{"test cluster names and label selector not matched", `{"clusterNames": ["cluster1"], "labelSelector": {"matchLabels": {"foo": "unmatched"}}}`, false},
	{"test cluster names and field selector(zone & region)", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone1", "zone2", "zone3"]}, {"key": "region", "operator": "In", "values": ["region1"]}]}}`, true},
	{"test cluster names and field selector(provider)", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "provider", "operator": "In", "values": ["provider1"]}]}}`, true},
	{"test cluster names and field selector(region)", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "In", "values": ["region1"]}]}}`, true},
	{"test cluster names and field selector(zone not in)", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["zone1", "zone2", "zone3"]}]}}`, false},
	{"test cluster names and field selector(provider not in)", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "provider", "operator": "NotIn", "values": ["provider1"]}]}}`, false},
	{"test cluster names and field selector(region not in)", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "NotIn", "values": ["region1"]}]}}`, false},
	{"test label selector and field selector(zone)", `{"labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone1", "zone2", "zone3"]}]}}`, true},
	{"test label selector and field selector(provider)", `{"labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "provider", "operator": "In", "values": ["provider1"]}]}}`, true},
	{"test label selector and field selector(region)", `{"labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "In", "values": ["region1"]}]}}`, true},
	{"test label selector and field selector(zone not in)", `{"labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["zone1", "zone2", "zone3"]}]}}`, false},
	{"test label selector and field selector(provider)", `{"labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "provider", "operator": "NotIn", "values": ["provider1"]}]}}`, false},
	{"test label selector and field selector(region)", `{"labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "NotIn", "values": ["region1"]}]}}`, false},
	{"test label selector", `{"labelSelector": {"matchLabels": {"foo": "bar"}}}`, true},
	{"test label selector not matched", `{"labelSelector": {"matchLabels": {"foo": "unmatched"}}}`, false},
	{"test empty cluster affinity matched", `{}`, true},
	{"test label selector error", `{"labelSelector": {"matchLabels": {"": "bar"}}}`, false},
	{"test field selector error", `{"fieldSelector": {"matchExpressions": [{"key": ""}]}}`, false},
	{"test field selector zone matched", `{"fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone1", "zone2", "zone3"]}]}}`, true},
	{"test field selector zone partially matched", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["zone1", "zone2", "zone3"]}]}}`, false},
	{"test field selector zone not matched", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone2"]}]}}`, true},
	{"test field selector region matched", `{"fieldSelector": {"matchExpressions": [{"key": "region", "operator": "In", "values": ["region1"]}]}}`, true},
	{"test field selector region not matched", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "NotIn", "values": ["region1"]}]}}`, false},
	{"test field selector region not matched", `{"clusterNames": ["cluster1"], "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "In", "values": ["region2"]}]}}`, false},
	{"test field selector provider matched", `{"fieldSelector": {"matchExpressions": [{"key": "provider", "operator": "In", "values": ["provider1"]}]}}`, true},
	{"test field selector provider not matched", `{"fieldSelector": {"matchExpressions": [{"key": "provider", "operator": "NotIn", "values": ["provider1"]}]}}`, false},
	{"test field selector provider not matched", `{"fieldSelector": {"matchExpressions": [{"key": "provider", "operator": "In", "values": ["provider2"]}]}}`, false},
	{"test field selector other key not matched", `{"fieldSelector": {"matchExpressions": [{"key": "metadata.name", "operator": "In", "values": ["cluster1"]}]}}`, false},
	{"test field selector cluster names and label selector", `{"clusterNames": ["cluster1"], "labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone1", "zone2", "zone3"]}]}}`, true},
	{"test field selector cluster names and label selector not matched", `{"clusterNames": ["cluster2"], "labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone1", "zone2", "zone3"]}]}}`, false},
	{"test field selector cluster names and label selector not matched", `{"clusterNames": ["cluster1"], "labelSelector": {"matchLabels": {"foo": "bar"}}, "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["zone1", "zone2", "zone3"]}]}}`, false},
	{"test field selector cluster names and label selector not matched", `{"clusterNames": ["cluster1"], "labelSelector": {"matchLabels": {"foo": "Unmatched"}}, "fieldSelector": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["zone1", "zone2", "zone3"]}]}}`, false},
}
