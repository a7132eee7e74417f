package builtin

// ChartSpecHash is KubeVela's spec hash (render/revision.DefinitionHash)
// of the v1.11 vela-core chart's definition of a kind and name
// (charts/vela-core/templates/defwithtemplate at kubevela 5a44b5f), "" for
// none. drydock's built-ins are its own CUE files that render what those
// definitions render; an application revision records the chart's specs,
// so its hash uses these. render/revision's TestChartSpecHashes recomputes
// the table from the chart's files (go test ./render/revision -update
// rewrites it).
func ChartSpecHash(kind, name string) string { return chartSpecHashes[kind+"/"+name] }
