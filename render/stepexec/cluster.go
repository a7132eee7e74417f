package stepexec

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/patch"
)

// Kube actions (kubevela/workflow pkg/providers/kube/kube.go), answered
// by the Host.

// defaultNamespace sets "default" on a namespaced object without one, as
// kube.go's Apply and Read do.
// target is the object a kube action acts on ($params.value, its
// namespace defaulted) and the cluster it names.
func (c *call) target() (map[string]any, string, error) {
	obj := c.obj("value")
	if obj == nil {
		return nil, "", c.errf("value is not an object")
	}
	defaultNamespace(obj)
	return obj, c.str("cluster"), nil
}

func defaultNamespace(obj map[string]any) {
	if cluster.IsClusterScoped(manifest.String(obj, "apiVersion"), manifest.String(obj, "kind")) {
		return
	}
	if manifest.String(obj, "metadata", "namespace") == "" {
		manifest.SetNested(obj, "default", "metadata", "namespace")
	}
}

func describe(cluster string, obj map[string]any) string {
	if cluster == "" {
		cluster = "local"
	}
	ns := manifest.String(obj, "metadata", "namespace")
	if ns == "" {
		ns = "_cluster"
	}
	return fmt.Sprintf("%s/%s %s %s", cluster, ns, manifest.String(obj, "kind"), manifest.String(obj, "metadata", "name"))
}

// dispatchLabels labels obj as KubeVela's controller does what a kube
// step applies: Apply and Patch add the Application's labels (kubevela/
// workflow pkg/providers/kube/kube.go, RuntimeParams.Labels, which the
// controller sets to app.oam.dev/name and app.oam.dev/namespace in
// application/generator.go GenerateApplicationSteps), then the
// controller's dispatcher (application/apply.go Dispatch,
// multicluster.ResourcesWithClusterName) sets app.oam.dev/cluster to the
// step's cluster when the object has none ("" for the hub).
func (c *call) dispatchLabels(obj map[string]any, cluster string, withApp bool) {
	labels := manifest.Map(obj, "metadata", "labels")
	if labels == nil {
		labels = map[string]any{}
		manifest.SetNested(obj, labels, "metadata", "labels")
	}
	if app := manifest.String(c.step.Context, "appName"); withApp && app != "" {
		labels[render.LabelAppName] = app
		labels[render.LabelAppNamespace] = manifest.String(c.step.Context, "namespace")
	}
	if s, _ := labels[render.LabelAppCluster].(string); s == "" {
		labels[render.LabelAppCluster] = cluster
	}
}

func doApply(c *call) (map[string]any, error) {
	obj, cluster, err := c.target()
	if err != nil {
		return nil, err
	}
	c.dispatchLabels(obj, cluster, true)
	c.tracef("  kube.apply %s", describe(cluster, obj))
	if err := c.host.Apply(cluster, obj); err != nil {
		return nil, c.errf("%w", err)
	}
	return map[string]any{"value": obj}, nil
}

func doApplyInParallel(c *call) (map[string]any, error) {
	list, _ := c.params["value"].([]any)
	cluster := c.str("cluster")
	for _, x := range list {
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, c.errf("value holds a non-object")
		}
		defaultNamespace(obj)
		c.dispatchLabels(obj, cluster, false)
		c.tracef("  kube.apply-in-parallel %s", describe(cluster, obj))
		if err := c.host.Apply(cluster, obj); err != nil {
			return nil, c.errf("%w", err)
		}
	}
	return map[string]any{"value": list}, nil
}

// doPatch reads the object, unifies the patch with it and applies it.
func doPatch(c *call) (map[string]any, error) {
	at := "$params."
	if c.legacy {
		at = ""
	}
	obj, cluster, err := c.target()
	if err != nil {
		return nil, err
	}
	live, err := c.host.Get(cluster, obj)
	if err != nil {
		return nil, c.errf("%w", err)
	}
	ctx := c.node.Context()
	out, err := patch.Apply(ctx, ctx.Encode(live), c.node.LookupPath(cue.ParsePath(at+"patch")))
	if err != nil {
		return nil, c.errf("%w", err)
	}
	var result map[string]any
	if err := out.Decode(&result); err != nil {
		return nil, c.errf("%w", err)
	}
	c.dispatchLabels(result, cluster, true)
	c.tracef("  kube.patch %s", describe(cluster, result))
	if err := c.host.Apply(cluster, result); err != nil {
		return nil, c.errf("%w", err)
	}
	return map[string]any{"result": result}, nil
}

// doRead answers the object or, when it is missing, `err` (kube.go Read
// does not fail the step).
func doRead(c *call) (map[string]any, error) {
	obj, cluster, err := c.target()
	if err != nil {
		return nil, err
	}
	live, err := c.host.Get(cluster, obj)
	if err != nil {
		c.tracef("  kube.read %s: %v", describe(cluster, obj), err)
		return map[string]any{"value": obj, "err": err.Error()}, nil
	}
	c.tracef("  kube.read %s", describe(cluster, obj))
	return map[string]any{"value": live}, nil
}

func doList(c *call) (map[string]any, error) {
	res := c.obj("resource")
	apiVersion, kind := manifest.String(res, "apiVersion"), manifest.String(res, "kind")
	filter := c.obj("filter")
	ns := manifest.String(filter, "namespace")
	cluster := c.str("cluster")
	objs, err := c.host.List(cluster, apiVersion, kind, ns, stringMap(filter["matchingLabels"]))
	items := make([]any, len(objs))
	for i, o := range objs {
		items[i] = o
	}
	list := map[string]any{"apiVersion": apiVersion, "kind": kind + "List", "metadata": map[string]any{}, "items": items}
	key := "values"
	if c.legacy {
		key = "list"
	}
	c.tracef("  kube.list %s %s in %q: %d", apiVersion, kind, ns, len(items))
	if err != nil {
		return map[string]any{key: list, "err": err.Error()}, nil
	}
	return map[string]any{key: list}, nil
}

func doDelete(c *call) (map[string]any, error) {
	obj := c.obj("value")
	if obj == nil {
		return nil, c.errf("value is not an object")
	}
	cluster := c.str("cluster")
	var f *Filter
	if m, ok := c.params["filter"].(map[string]any); ok {
		f = &Filter{Namespace: manifest.String(m, "namespace"), Labels: stringMap(m["matchingLabels"])}
	}
	c.tracef("  kube.delete %s%s", describe(cluster, obj), filterText(f))
	if err := c.host.Delete(cluster, obj, f); err != nil {
		return map[string]any{"value": obj, "err": err.Error()}, nil
	}
	return nil, nil
}

func filterText(f *Filter) string {
	if f == nil {
		return ""
	}
	var l []string
	for k, v := range f.Labels {
		l = append(l, k+"="+v)
	}
	sort.Strings(l)
	return fmt.Sprintf(" (all in %q with labels %s)", f.Namespace, strings.Join(l, ","))
}

func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	out := map[string]string{}
	for k, x := range m {
		out[k] = fmt.Sprint(x)
	}
	return out
}

// Config actions: a config is a Secret in its namespace with KubeVela's
// config labels (kubevela pkg/config/factory.go ParseConfig,
// CreateOrUpdateConfig, ReadConfig, ListConfigs, DeleteConfig).

const (
	labelConfigCatalog     = "config.oam.dev/catalog"
	labelConfigType        = "config.oam.dev/type"
	velaCoreConfig         = "velacore-config"
	annoConfigAlias        = "config.oam.dev/alias"
	annoConfigDescription  = "config.oam.dev/description"
	annoConfigSensitive    = "config.oam.dev/sensitive"
	saveInputPropertiesKey = "input-properties"
	templatePrefix         = "config-template-"
)

// errTemplateNotFound is pkg/config's ErrTemplateNotFound.
var errTemplateNotFound = errors.New("the template does not exist")

func configSecret(name, namespace string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": name, "namespace": namespace}}
}

func doCreateConfig(c *call) (map[string]any, error) {
	name, ns, tmpl := c.str("name"), c.str("namespace"), c.str("template")
	if tmpl != "" {
		tns, tname := "vela-system", tmpl
		if before, after, ok := strings.Cut(tmpl, "/"); ok {
			tns, tname = before, after
		}
		cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": templatePrefix + tname, "namespace": tns}}
		if _, err := c.host.Get("", cm); err != nil {
			c.tracef("  config.create %s/%s: template %s/%s: %v", ns, name, tns, tname, errTemplateNotFound)
			return nil, c.errf("%w", errTemplateNotFound)
		}
		return nil, c.errf("config template %s/%s: drydock does not render config templates", tns, tname)
	}
	props, err := json.Marshal(c.obj("config"))
	if err != nil {
		return nil, c.errf("%w", err)
	}
	secret := configSecret(name, ns)
	md := secret["metadata"].(map[string]any)
	labels := map[string]any{labelConfigCatalog: velaCoreConfig, labelConfigType: ""}
	// the controller's config dispatcher labels what it writes with the
	// Application (application/generator.go NewConfigFactoryWithDispatcher)
	if app := manifest.String(c.step.Context, "appName"); app != "" {
		labels["app.oam.dev/name"] = app
		labels["app.oam.dev/namespace"] = manifest.String(c.step.Context, "namespace")
	}
	md["labels"] = labels
	md["annotations"] = map[string]any{annoConfigAlias: "", annoConfigDescription: ""}
	secret["data"] = map[string]any{saveInputPropertiesKey: base64.StdEncoding.EncodeToString(props)}
	c.tracef("  config.create %s", describe("", secret))
	if err := c.host.Apply("", secret); err != nil {
		return nil, c.errf("fail to apply the secret: %w", err)
	}
	return nil, nil
}

func doReadConfig(c *call) (map[string]any, error) {
	secret, err := c.host.Get("", configSecret(c.str("name"), c.str("namespace")))
	c.tracef("  config.read %s/%s", c.str("namespace"), c.str("name"))
	if err != nil {
		return nil, c.errf("%w", err)
	}
	if manifest.String(secret, "metadata", "annotations", annoConfigSensitive) == "true" {
		return nil, c.errf("the config is sensitive")
	}
	props, err := inputProperties(secret)
	if err != nil {
		return nil, c.errf("%w", err)
	}
	return map[string]any{"config": props}, nil
}

func inputProperties(secret map[string]any) (map[string]any, error) {
	raw := []byte(manifest.String(secret, "stringData", saveInputPropertiesKey))
	if enc := manifest.String(secret, "data", saveInputPropertiesKey); enc != "" {
		var err error
		if raw, err = base64.StdEncoding.DecodeString(enc); err != nil {
			return nil, err
		}
	}
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func doListConfig(c *call) (map[string]any, error) {
	tmpl, ns := c.str("template"), c.str("namespace")
	if tmpl == "" || ns == "" {
		return nil, c.errf("the request is in valid")
	}
	if _, after, ok := strings.Cut(tmpl, "/"); ok {
		tmpl = after
	}
	secrets, err := c.host.List("", "v1", "Secret", ns, map[string]string{labelConfigCatalog: velaCoreConfig, labelConfigType: tmpl})
	if err != nil {
		return nil, c.errf("%w", err)
	}
	configs := []any{}
	for _, s := range secrets {
		props, _ := inputProperties(s)
		configs = append(configs, map[string]any{"name": manifest.String(s, "metadata", "name"),
			"alias": manifest.String(s, "metadata", "annotations", annoConfigAlias), "description": manifest.String(s, "metadata", "annotations", annoConfigDescription),
			"config": props})
	}
	c.tracef("  config.list %s in %s: %d", tmpl, ns, len(configs))
	return map[string]any{"configs": configs}, nil
}

func doDeleteConfig(c *call) (map[string]any, error) {
	name, ns := c.str("name"), c.str("namespace")
	secret, err := c.host.Get("", configSecret(name, ns))
	c.tracef("  config.delete %s/%s", ns, name)
	if err != nil {
		return nil, c.errf("the config %s not found", name)
	}
	if manifest.String(secret, "metadata", "labels", labelConfigCatalog) != velaCoreConfig {
		return nil, c.errf("found a secret but is not a config")
	}
	if err := c.host.Delete("", configSecret(name, ns), nil); err != nil {
		return nil, c.errf("%w", err)
	}
	return nil, nil
}
