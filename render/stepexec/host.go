package stepexec

// Host answers the providers that need the clusters or the Application:
// render/workflow implements it over the workflow's writes, the observed
// clusters and its component rendering.
type Host interface {
	// Apply writes obj (namespace set) to cluster ("" is the hub).
	Apply(cluster string, obj map[string]any) error
	// Get reads the object obj names (apiVersion, kind, metadata.name and
	// namespace) as the workflow sees it now; a missing object is an
	// error in the API server's words.
	Get(cluster string, obj map[string]any) (map[string]any, error)
	// List returns the objects of apiVersion and kind in namespace (""
	// all) that carry labels.
	List(cluster, apiVersion, kind, namespace string, labels map[string]string) ([]map[string]any, error)
	// Delete deletes the objects of obj's kind: the one obj names, or
	// with a filter those in its namespace that carry its labels.
	Delete(cluster string, obj map[string]any, filter *Filter) error
	// Components are the Application's components as KubeVela loads them
	// (name, type, properties, traits, ...), in order.
	Components() ([]map[string]any, error)
	// Policies are the Application's policies (name, type, properties).
	Policies() []map[string]any
	// ApplyComponent renders and writes a component (as Components
	// gives it, maybe patched) to cluster and namespace ("" keep); it
	// returns the workload and the auxiliary objects by output name.
	ApplyComponent(comp map[string]any, cluster, namespace string) (output map[string]any, outputs map[string]any, err error)
	// RenderComponent renders a component without writing it.
	RenderComponent(comp map[string]any, cluster, namespace string) (output map[string]any, outputs map[string]any, err error)
	// Deploy runs a deploy with the named policies, then the inline ones
	// (name, type, properties), as the deploy step does.
	Deploy(policies []string, parallelism int64, inline []map[string]any) error
	// Clusters are the clusters KubeVela knows (the inventory).
	Clusters() []string
	// Placements are the placements of the named topology policies.
	Placements(policies []string) ([]map[string]any, error)
	// ServiceEndpoints are the endpoints of the services the named
	// Application has dispatched (components: only those).
	ServiceEndpoints(app, namespace string, components []string) ([]any, error)
	// GetVar and PutVar read and write the workflow context's variables.
	GetVar(path string) (any, error)
	PutVar(path string, v any) error
}

// Filter selects objects to delete by namespace and labels.
type Filter struct {
	Namespace string
	Labels    map[string]string
}
