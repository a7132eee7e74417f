package stepexec

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// OAM, multicluster, query and terraform actions (kubevela
// pkg/workflow/providers/{oam,multicluster,query,terraform} and their
// legacy variants), answered by the Host.

func doLoad(c *call) (map[string]any, error) {
	comps, err := c.loadComponents()
	if err != nil {
		return nil, err
	}
	byName := map[string]any{}
	for _, comp := range comps {
		byName[manifest.String(comp, "name")] = comp
	}
	return map[string]any{"value": byName}, nil
}

func doLoadInOrder(c *call) (map[string]any, error) {
	comps, err := c.loadComponents()
	if err != nil {
		return nil, err
	}
	list := make([]any, len(comps))
	for i, comp := range comps {
		list[i] = comp
	}
	return map[string]any{"value": list}, nil
}

func (c *call) loadComponents() ([]map[string]any, error) {
	if app := c.str("app"); app != "" {
		return nil, c.errf("loading the components of Application %q: drydock loads only the rendered Application's", app)
	}
	comps, err := c.host.Components()
	if err != nil {
		return nil, c.errf("%w", err)
	}
	c.tracef("  oam.load: %d components", len(comps))
	return comps, nil
}

func doLoadPolicies(c *call) (map[string]any, error) {
	byName := map[string]any{}
	for _, p := range c.host.Policies() {
		byName[manifest.String(p, "name")] = p
	}
	return map[string]any{"value": byName}, nil
}

func doApplyComponent(c *call) (map[string]any, error) {
	return c.component(true)
}

func doRenderComponent(c *call) (map[string]any, error) {
	return c.component(false)
}

// component applies (or renders) the component in `value` to `cluster`
// and `namespace`. Its health is not known offline: a component KubeVela
// waits for is taken as healthy.
func (c *call) component(apply bool) (map[string]any, error) {
	comp := c.obj("value")
	if comp == nil {
		return nil, c.errf("var(path=value) not exist")
	}
	cluster, ns := c.str("cluster"), c.str("namespace")
	f, verb := c.host.RenderComponent, "render"
	if apply {
		f, verb = c.host.ApplyComponent, "apply"
	}
	c.tracef("  oam.component-%s %s to %s", verb, manifest.String(comp, "name"), placement(cluster, ns))
	output, outputs, err := f(comp, cluster, ns)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if output != nil {
		out["output"] = output
	}
	if len(outputs) > 0 {
		out["outputs"] = outputs
	}
	return out, nil
}

func placement(cluster, ns string) string {
	if cluster == "" {
		cluster = "local"
	}
	if ns == "" {
		return cluster
	}
	return cluster + "/" + ns
}

// doListClusters lists the registered clusters: KubeVela lists the
// cluster-gateway Secrets (pkg/workflow/providers/multicluster/multicluster.go
// ListClusters, pkg/multicluster/utils.go ListExistingClusterSecrets), so
// the hub `local`, which has none, is never among them.
func doListClusters(c *call) (map[string]any, error) {
	clusters := []any{}
	for _, name := range c.host.Clusters() {
		if name != "local" {
			clusters = append(clusters, name)
		}
	}
	c.tracef("  multicluster.list-clusters: %d", len(clusters))
	return map[string]any{"outputs": map[string]any{"clusters": clusters}}, nil
}

func doPlacements(c *call) (map[string]any, error) {
	names := strings2(c.params["policies"])
	pls, err := c.host.Placements(names)
	if err != nil {
		return nil, c.errf("%w", err)
	}
	list := make([]any, len(pls))
	for i, p := range pls {
		list[i] = p
	}
	c.tracef("  multicluster.get-placements-from-topology-policies %s: %d", strings.Join(names, ","), len(list))
	return map[string]any{"placements": list}, nil
}

func doDeploy(c *call) (map[string]any, error) {
	par, _ := c.params["parallelism"].(int64)
	if par <= 0 {
		return nil, c.errf("parallelism cannot be smaller than 1")
	}
	var inline []map[string]any
	list, _ := c.params["inlinePolicies"].([]any)
	for i, x := range list {
		p, _ := x.(map[string]any)
		if p == nil {
			continue
		}
		if manifest.String(p, "name") == "" {
			// deploy.go fillInlinePolicyNames
			p["name"] = fmt.Sprintf("inline-%s-policy-%d", manifest.String(p, "type"), i)
		}
		inline = append(inline, p)
	}
	names := strings2(c.params["policies"])
	c.tracef("  multicluster.deploy policies %q, %d inline", names, len(inline))
	return nil, c.host.Deploy(names, par, inline)
}

func strings2(v any) []string {
	l, _ := v.([]any)
	out := []string{}
	for _, x := range l {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

func doServiceEndpoints(c *call) (map[string]any, error) {
	app := c.obj("app")
	var comps []string
	if f, ok := app["filter"].(map[string]any); ok {
		comps = strings2(f["components"])
	}
	name, ns := manifest.String(app, "name"), manifest.String(app, "namespace")
	eps, err := c.host.ServiceEndpoints(name, ns, comps)
	if err != nil {
		return nil, c.errf("%w", err)
	}
	c.tracef("  query.collectServiceEndpoints %s/%s: %d", ns, name, len(eps))
	return map[string]any{"list": eps}, nil
}

func doTerraform(c *call) (map[string]any, error) {
	do, _ := c.node.LookupPath(cuePath("#do")).String()
	return nil, c.errf("terraform.%s: drydock does not render Terraform components (their state lives in the Terraform controller)", do)
}

// Env-binding (deprecated; kubevela pkg/workflow/providers/legacy/
// multicluster/multicluster.go and pkg/policy/envbinding/patch.go).

// doPlacementDecisions is MakePlacementDecisions: one cluster and
// namespace by name.
func doPlacementDecisions(c *call) (map[string]any, error) {
	in, _ := c.params["inputs"].(map[string]any)
	policy, env := manifest.String(in, "policyName"), manifest.String(in, "envName")
	switch {
	case policy == "":
		return nil, c.errf("empty policy name")
	case env == "":
		return nil, c.errf("empty env name")
	}
	pl, ok := in["placement"].(map[string]any)
	if !ok {
		return nil, c.errf("empty placement for policy %s in env %s", policy, env)
	}
	if l, _ := nested(pl, "namespaceSelector", "labels").(map[string]any); len(l) > 0 {
		return nil, c.errf("invalid env %s: namespace selector in cluster-gateway does not support label selector for now", env)
	}
	if l, _ := nested(pl, "clusterSelector", "labels").(map[string]any); len(l) > 0 {
		return nil, c.errf("invalid env %s: cluster selector does not support label selector for now", env)
	}
	ns := manifest.String(pl, "namespaceSelector", "name")
	cluster := manifest.String(pl, "clusterSelector", "name")
	if cluster == "" {
		cluster = "local"
	}
	if cluster != "local" && !contains(c.host.Clusters(), cluster) {
		return nil, c.errf("failed to get cluster %s for env %s: cluster %q is not in the inventory", cluster, env, cluster)
	}
	c.tracef("  env-binding %s/%s: cluster %s namespace %q", policy, env, cluster, ns)
	d := map[string]any{"cluster": cluster, "namespace": ns}
	return map[string]any{"outputs": map[string]any{"decisions": []any{d}}}, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// doPatchApplication is PatchApplication: the components patched by the
// env's patch and filtered by its selector.
func doPatchApplication(c *call) (map[string]any, error) {
	in, _ := c.params["inputs"].(map[string]any)
	if manifest.String(in, "envName") == "" {
		return nil, c.errf("empty env name")
	}
	base, err := c.host.Components()
	if err != nil {
		return nil, c.errf("%w", err)
	}
	patches, _ := nested(in, "patch", "components").([]any)
	comps := patchComponents(base, patches)
	if sel, ok := nested(in, "selector", "components").([]any); ok {
		comps = selectComponents(comps, strings2(sel))
	}
	list := make([]any, len(comps))
	for i, comp := range comps {
		list[i] = comp
	}
	return map[string]any{"outputs": map[string]any{"spec": map[string]any{"components": list}}}, nil
}

var componentName = regexp.MustCompile("[a-z]([a-z-]{0,61}[a-z])?")

func patchComponents(base []map[string]any, patches []any) []map[string]any {
	byName := map[string]map[string]any{}
	var order []string
	for _, comp := range base {
		name := manifest.String(comp, "name")
		byName[name] = comp
		order = append(order, name)
	}
	for _, x := range patches {
		p, _ := x.(map[string]any)
		name, typ := manifest.String(p, "name"), manifest.String(p, "type")
		if name == "" {
			for n, b := range byName {
				if typ == "" || typ == manifest.String(b, "type") {
					byName[n] = mergeComponent(b, p)
				}
			}
			continue
		}
		add := componentName.MatchString(name)
		if re, err := regexp.Compile(strings.ReplaceAll(name, "*", ".*")); err == nil {
			for n, b := range byName {
				if !re.MatchString(n) {
					continue
				}
				add = false
				if typ != "" && typ != manifest.String(b, "type") {
					byName[n] = manifest.DeepCopy(p).(map[string]any)
				} else {
					byName[n] = mergeComponent(b, p)
				}
			}
		}
		if add {
			byName[name] = manifest.DeepCopy(p).(map[string]any)
			order = append(order, name)
		}
	}
	out := make([]map[string]any, len(order))
	for i, n := range order {
		out[i] = byName[n]
	}
	return out
}

// mergeComponent is envbinding's MergeComponent: properties merged with
// override, traits merged by type (disable drops one).
func mergeComponent(base, p map[string]any) map[string]any {
	out := manifest.DeepCopy(base).(map[string]any)
	props, _ := out["properties"].(map[string]any)
	pp, _ := p["properties"].(map[string]any)
	out["properties"] = mergeOverride(props, pp)
	var order []string
	traits := map[string]map[string]any{}
	tl, _ := out["traits"].([]any)
	for _, t := range tl {
		tm, _ := t.(map[string]any)
		typ := manifest.String(tm, "type")
		traits[typ] = tm
		order = append(order, typ)
	}
	pl, _ := p["traits"].([]any)
	for _, t := range pl {
		tm, _ := t.(map[string]any)
		typ := manifest.String(tm, "type")
		disable, _ := tm["disable"].(bool)
		if b, ok := traits[typ]; ok {
			if disable {
				delete(traits, typ)
				continue
			}
			bp, _ := b["properties"].(map[string]any)
			tp, _ := tm["properties"].(map[string]any)
			b["properties"] = mergeOverride(bp, tp)
			continue
		}
		if !disable {
			traits[typ] = map[string]any{"type": typ, "properties": tm["properties"]}
			order = append(order, typ)
		}
	}
	list := []any{}
	for _, typ := range order {
		if t, ok := traits[typ]; ok {
			list = append(list, t)
		}
	}
	out["traits"] = list
	return out
}

// mergeOverride is mergo.Merge with WithOverride: maps merged deeply,
// anything else replaced.
func mergeOverride(base, p map[string]any) map[string]any {
	if base == nil {
		base = map[string]any{}
	}
	for k, v := range p {
		bm, ok1 := base[k].(map[string]any)
		pm, ok2 := v.(map[string]any)
		if ok1 && ok2 {
			base[k] = mergeOverride(bm, pm)
			continue
		}
		base[k] = manifest.DeepCopy(v)
	}
	return base
}

// selectComponents keeps the named components (utils.FilterComponents).
func selectComponents(comps []map[string]any, names []string) []map[string]any {
	var out []map[string]any
	for _, comp := range comps {
		if contains(names, manifest.String(comp, "name")) {
			out = append(out, comp)
		}
	}
	return out
}

// nested reads m at keys (nil when absent).
func nested(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		cm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = cm[k]
	}
	return cur
}
