package propagation

import (
	"reflect"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// Kubernetes' defaulting of built-in kinds, as kube-apiserver (and so
// karmada-apiserver) applies it when a template is created: ported by
// hand from k8s.io/kubernetes pkg/apis/apps/v1/defaults.go,
// pkg/apis/batch/v1/defaults.go and pkg/apis/core/v1/defaults.go with the
// declarative `+default=` tags of k8s.io/api v0.36 (ContainerPort and
// ServicePort protocol, ReplicationController replicas) and the traversal
// of their zz_generated.defaults.go.
//
// Karmada sees the template as stored: its detector selects, its scheduler
// counts and its override policies patch the defaulted object. Defaults
// that change what Karmada decides or what overrides see:
//
//   - scheduling: Deployment, StatefulSet, ReplicaSet and
//     ReplicationController spec.replicas 1 (a template without replicas is
//     a workload of 1, divided or duplicated by its policy, not 0 that goes
//     nowhere); Job spec.parallelism and spec.completions 1 (both unset);
//     a Pod's container requests copied from its limits (the estimator's
//     replica requirements); a Job's metadata.labels copied from its pod
//     template's when it has none, and a Namespace's
//     kubernetes.io/metadata.name label (what policy label selectors
//     match);
//   - what overrides see: containers' imagePullPolicy (Always for a
//     :latest or untagged image, else IfNotPresent), terminationMessagePath
//     and terminationMessagePolicy, ports' protocol TCP, probes' timeouts
//     and thresholds, httpGet path and scheme, env fieldRef apiVersion, pod
//     dnsPolicy, restartPolicy, schedulerName, securityContext {},
//     terminationGracePeriodSeconds, volume defaultModes and emptyDir for a
//     volume without a source; Deployment/DaemonSet/StatefulSet strategies,
//     revisionHistoryLimit, progressDeadlineSeconds, podManagementPolicy,
//     persistentVolumeClaimRetentionPolicy; Job backoffLimit,
//     completionMode, suspend, podReplacementPolicy; CronJob
//     concurrencyPolicy, suspend and history limits; Service type,
//     sessionAffinity (and a None affinity's config dropped), targetPort
//     (= port), external and internal traffic policies,
//     allocateLoadBalancerNodePorts; Secret type Opaque; PVC volumeMode.
//
// Not emulated: quantity canonicalisation (SetDefaults_ResourceList),
// pod-level resources, image volumes, the registry's allocations (Service
// clusterIP, ipFamilies, Namespace spec.finalizers), and the defaults of
// other groups (autoscaling, networking, policy, ...).
//
// What Karmada writes into a Work the member's API server defaults again.
// The output leaves out (Elide) every default still at the value
// karmada-apiserver gave it: a rendered object is what was authored plus
// what Karmada and its overrides changed, as the conformance corpus (whose
// oracle ran Karmada's code on templates as written) expects. That equals
// what the member holds after its own defaulting except where a default
// depends on a field an override changed: the real Work carries
// karmada-apiserver's value (imagePullPolicy IfNotPresent for an image
// whose tag an override removed; the corpus case image-tag-remove expects
// no imagePullPolicy, so the member would pick Always), a Service's
// targetPort after its port was overridden, a Job's labels copied from its
// pod template (the member does not copy them beside Karmada's labels).

// Defaults records what Default added to a template: each field with its
// default value, and the maps it created to hold them.
type Defaults struct {
	added   []addedField
	created [][]any
}

type addedField struct {
	path  []any
	value any
}

// Default returns template as kube-apiserver stores it: a copy with the
// defaults of its kind, if it is a built-in kind; the copy keeps the
// template's positions and provenance (the defaults recorded as
// karmada-apiserver's).
func Default(template *manifest.Object) (*manifest.Object, *Defaults) {
	data, _ := manifest.DeepCopy(template.Data).(map[string]any)
	out := &manifest.Object{Data: data, Pos: template.Pos, ListItem: template.ListItem}
	out.Graft(nil, template)
	d := &Defaults{}
	d.object(data)
	if template.Provenance != nil {
		out.Provenance = template.Provenance.Clone()
		out.Provenance.Record(template.Data, data, manifest.Origin{Stage: manifest.StageKarmada, Name: "karmada-apiserver", Detail: "defaults of the kind", Pos: template.Pos})
	}
	return out, d
}

// object applies the defaults of data's kind.
func (d *Defaults) object(data map[string]any) {
	kind := manifest.String(data, "apiVersion") + "/" + manifest.String(data, "kind")
	var spec map[string]any
	switch kind { // the kinds whose spec is a struct: it is always written
	case "apps/v1/Deployment", "apps/v1/StatefulSet", "apps/v1/DaemonSet", "apps/v1/ReplicaSet", "batch/v1/Job",
		"batch/v1/CronJob", "v1/Pod", "v1/ReplicationController", "v1/Service", "v1/PersistentVolumeClaim":
		spec = d.child(data, p(), "spec")
	}
	switch kind {
	case "apps/v1/Deployment":
		d.deployment(spec)
	case "apps/v1/StatefulSet":
		d.statefulSet(spec)
	case "apps/v1/DaemonSet":
		d.daemonSet(spec)
	case "apps/v1/ReplicaSet":
		d.set(spec, p("spec"), "replicas", int64(1))
		d.podTemplate(spec, p("spec", "template"))
	case "batch/v1/Job":
		d.job(data, spec)
	case "batch/v1/CronJob":
		d.cronJob(spec)
	case "v1/Pod":
		d.pod(spec)
	case "v1/PodTemplate":
		d.podTemplate(data, p())
	case "v1/ReplicationController":
		d.replicationController(data, spec)
	case "v1/Service":
		d.service(spec)
	case "v1/Secret":
		d.set(data, p(), "type", "Opaque")
	case "v1/Namespace":
		if name := manifest.String(data, "metadata", "name"); name != "" {
			d.set(d.child(data, p(), "metadata", "labels"), p("metadata", "labels"), "kubernetes.io/metadata.name", name)
		}
	case "v1/PersistentVolumeClaim":
		d.set(spec, p("spec"), "volumeMode", "Filesystem")
	}
}

// SetDefaults_Deployment.
func (d *Defaults) deployment(spec map[string]any) {
	at := p("spec")
	d.set(spec, at, "replicas", int64(1))
	strategy := d.child(spec, at, "strategy")
	d.set(strategy, p("spec", "strategy"), "type", "RollingUpdate")
	if manifest.String(strategy, "type") == "RollingUpdate" {
		ru := d.child(strategy, p("spec", "strategy"), "rollingUpdate")
		d.set(ru, p("spec", "strategy", "rollingUpdate"), "maxUnavailable", "25%")
		d.set(ru, p("spec", "strategy", "rollingUpdate"), "maxSurge", "25%")
	}
	d.set(spec, at, "revisionHistoryLimit", int64(10))
	d.set(spec, at, "progressDeadlineSeconds", int64(600))
	d.podTemplate(spec, p("spec", "template"))
}

// SetDefaults_DaemonSet.
func (d *Defaults) daemonSet(spec map[string]any) {
	at := p("spec", "updateStrategy")
	us := d.child(spec, p("spec"), "updateStrategy")
	d.set(us, at, "type", "RollingUpdate")
	if manifest.String(us, "type") == "RollingUpdate" {
		ru := d.child(us, at, "rollingUpdate")
		d.set(ru, p("spec", "updateStrategy", "rollingUpdate"), "maxUnavailable", int64(1))
		d.set(ru, p("spec", "updateStrategy", "rollingUpdate"), "maxSurge", int64(0))
	}
	d.set(spec, p("spec"), "revisionHistoryLimit", int64(10))
	d.podTemplate(spec, p("spec", "template"))
}

// SetDefaults_StatefulSet (StatefulSetAutoDeletePVC is GA), with the
// volume claim templates' defaults.
func (d *Defaults) statefulSet(spec map[string]any) {
	at := p("spec")
	d.set(spec, at, "podManagementPolicy", "OrderedReady")
	us := d.child(spec, at, "updateStrategy")
	if manifest.String(us, "type") == "" {
		d.set(us, p("spec", "updateStrategy"), "type", "RollingUpdate")
		d.child(us, p("spec", "updateStrategy"), "rollingUpdate")
	}
	if ru, ok := us["rollingUpdate"].(map[string]any); ok && manifest.String(us, "type") == "RollingUpdate" {
		d.set(ru, p("spec", "updateStrategy", "rollingUpdate"), "partition", int64(0))
	}
	rp := d.child(spec, at, "persistentVolumeClaimRetentionPolicy")
	d.set(rp, p("spec", "persistentVolumeClaimRetentionPolicy"), "whenDeleted", "Retain")
	d.set(rp, p("spec", "persistentVolumeClaimRetentionPolicy"), "whenScaled", "Retain")
	d.set(spec, at, "replicas", int64(1))
	d.set(spec, at, "revisionHistoryLimit", int64(10))
	d.podTemplate(spec, p("spec", "template"))
	claims, _ := spec["volumeClaimTemplates"].([]any)
	for i, raw := range claims {
		if c, ok := raw.(map[string]any); ok {
			cat := p("spec", "volumeClaimTemplates", i)
			d.set(d.child(c, cat, "spec"), append(slices.Clone(cat), "spec"), "volumeMode", "Filesystem")
			d.set(d.child(c, cat, "status"), append(slices.Clone(cat), "status"), "phase", "Pending")
		}
	}
}

// SetDefaults_Job as of Kubernetes 1.34+ (JobPodReplacementPolicy GA;
// backoffLimit MaxInt32 with backoffLimitPerIndex; onPodConditions status
// True).
func (d *Defaults) job(data, spec map[string]any) {
	at := p("spec")
	if spec != nil && spec["completions"] == nil && spec["parallelism"] == nil {
		d.set(spec, at, "completions", int64(1))
	}
	d.set(spec, at, "parallelism", int64(1))
	if spec != nil && spec["backoffLimitPerIndex"] != nil {
		d.set(spec, at, "backoffLimit", int64(2147483647))
	}
	d.set(spec, at, "backoffLimit", int64(6))
	if labels, ok := manifest.Map(spec, "template", "metadata")["labels"].(map[string]any); ok && labels != nil && len(manifest.Map(data, "metadata", "labels")) == 0 {
		own := d.child(data, p(), "metadata", "labels")
		for _, k := range sortedKeys(labels) {
			d.set(own, p("metadata", "labels"), k, labels[k])
		}
	}
	d.set(spec, at, "completionMode", "NonIndexed")
	d.set(spec, at, "suspend", false)
	pfp, _ := manifest.Lookup(spec, "podFailurePolicy")
	rules, _ := manifest.Map(spec, "podFailurePolicy")["rules"].([]any)
	for i, raw := range rules {
		rule, _ := raw.(map[string]any)
		conds, _ := rule["onPodConditions"].([]any)
		for j, c := range conds {
			if m, ok := c.(map[string]any); ok && manifest.String(m, "status") == "" {
				d.setEmpty(m, p("spec", "podFailurePolicy", "rules", i, "onPodConditions", j), "status", "True")
			}
		}
	}
	if pfp != nil {
		d.set(spec, at, "podReplacementPolicy", "Failed")
	}
	d.set(spec, at, "podReplacementPolicy", "TerminatingOrFailed")
	d.podTemplate(spec, p("spec", "template"))
}

// SetDefaults_CronJob; the job template's pod template gets the pod
// defaults (SetDefaults_Job is not applied to a job template).
func (d *Defaults) cronJob(spec map[string]any) {
	at := p("spec")
	d.set(spec, at, "concurrencyPolicy", "Allow")
	d.set(spec, at, "suspend", false)
	d.set(spec, at, "successfulJobsHistoryLimit", int64(3))
	d.set(spec, at, "failedJobsHistoryLimit", int64(1))
	d.podTemplate(manifest.Map(spec, "jobTemplate", "spec"), p("spec", "jobTemplate", "spec", "template"))
}

// SetDefaults_ReplicationController and the declarative replicas 1.
func (d *Defaults) replicationController(data, spec map[string]any) {
	if labels, ok := manifest.Map(spec, "template", "metadata")["labels"].(map[string]any); ok && labels != nil {
		if len(manifest.Map(spec, "selector")) == 0 {
			sel := d.child(spec, p("spec"), "selector")
			for _, k := range sortedKeys(labels) {
				d.set(sel, p("spec", "selector"), k, labels[k])
			}
		}
		if len(manifest.Map(data, "metadata", "labels")) == 0 {
			own := d.child(data, p(), "metadata", "labels")
			for _, k := range sortedKeys(labels) {
				d.set(own, p("metadata", "labels"), k, labels[k])
			}
		}
	}
	d.set(spec, p("spec"), "replicas", int64(1))
	d.podTemplate(spec, p("spec", "template"))
}

// pod is SetDefaults_Pod then the pod spec's defaults: requests default to
// limits, enableServiceLinks true, host-network ports.
func (d *Defaults) pod(spec map[string]any) {
	if spec == nil {
		return
	}
	for _, list := range []string{"containers", "initContainers"} {
		cs, _ := spec[list].([]any)
		for i, raw := range cs {
			c, _ := raw.(map[string]any)
			limits := manifest.Map(c, "resources", "limits")
			if limits == nil {
				continue
			}
			at := p("spec", list, i, "resources")
			req := d.child(d.child(c, p("spec", list, i), "resources"), at, "requests")
			for _, k := range sortedKeys(limits) {
				if _, ok := req[k]; !ok {
					d.set(req, append(slices.Clone(at), "requests"), k, manifest.DeepCopy(limits[k]))
				}
			}
		}
	}
	d.set(spec, p("spec"), "enableServiceLinks", true)
	if host, _ := spec["hostNetwork"].(bool); host {
		for _, list := range []string{"containers", "initContainers"} {
			cs, _ := spec[list].([]any)
			for i, raw := range cs {
				c, _ := raw.(map[string]any)
				ports, _ := c["ports"].([]any)
				for j, pr := range ports {
					if m, ok := pr.(map[string]any); ok && m["containerPort"] != nil {
						if n, _ := toInt(m["hostPort"]); n == 0 {
							d.setEmpty(m, p("spec", list, i, "ports", j), "hostPort", m["containerPort"])
						}
					}
				}
			}
		}
	}
	d.podSpec(spec, p("spec"))
	ecs, _ := spec["ephemeralContainers"].([]any)
	for i, raw := range ecs {
		if c, ok := raw.(map[string]any); ok {
			d.container(c, p("spec", "ephemeralContainers", i))
		}
	}
}

// podTemplate applies the pod spec defaults to the template at
// holder.template (at is the template's path).
func (d *Defaults) podTemplate(holder map[string]any, at []any) {
	spec, ok := manifest.Map(holder, "template")["spec"].(map[string]any)
	if !ok {
		return
	}
	d.podSpec(spec, append(slices.Clone(at), "spec"))
}

// SetDefaults_PodSpec, then its containers and volumes.
func (d *Defaults) podSpec(spec map[string]any, at []any) {
	d.set(spec, at, "dnsPolicy", "ClusterFirst")
	d.set(spec, at, "restartPolicy", "Always")
	d.set(spec, at, "securityContext", map[string]any{})
	d.set(spec, at, "terminationGracePeriodSeconds", int64(30))
	d.set(spec, at, "schedulerName", "default-scheduler")
	for _, list := range []string{"initContainers", "containers"} {
		cs, _ := spec[list].([]any)
		for i, raw := range cs {
			if c, ok := raw.(map[string]any); ok {
				d.container(c, append(slices.Clone(at), list, i))
			}
		}
	}
	vols, _ := spec["volumes"].([]any)
	for i, raw := range vols {
		if v, ok := raw.(map[string]any); ok {
			d.volume(v, append(slices.Clone(at), "volumes", i))
		}
	}
}

// SetDefaults_Container with its ports, probes, lifecycle handlers and
// env.
func (d *Defaults) container(c map[string]any, at []any) {
	if manifest.String(c, "imagePullPolicy") == "" {
		policy := "IfNotPresent"
		if imageTag(manifest.String(c, "image")) == "latest" {
			policy = "Always"
		}
		d.setEmpty(c, at, "imagePullPolicy", policy)
	}
	d.setEmpty(c, at, "terminationMessagePath", "/dev/termination-log")
	d.setEmpty(c, at, "terminationMessagePolicy", "File")
	ports, _ := c["ports"].([]any)
	for i, raw := range ports {
		if m, ok := raw.(map[string]any); ok {
			d.setEmpty(m, append(slices.Clone(at), "ports", i), "protocol", "TCP")
		}
	}
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if m, ok := c[probe].(map[string]any); ok {
			pat := append(slices.Clone(at), probe)
			d.setZero(m, pat, "timeoutSeconds", int64(1))
			d.setZero(m, pat, "periodSeconds", int64(10))
			d.setZero(m, pat, "successThreshold", int64(1))
			d.setZero(m, pat, "failureThreshold", int64(3))
			d.httpGet(m, pat)
		}
	}
	for _, h := range []string{"postStart", "preStop"} {
		if m, ok := manifest.Map(c, "lifecycle")[h].(map[string]any); ok {
			d.httpGet(m, append(slices.Clone(at), "lifecycle", h))
		}
	}
	env, _ := c["env"].([]any)
	for i, raw := range env {
		e, _ := raw.(map[string]any)
		if ref, ok := manifest.Map(e, "valueFrom")["fieldRef"].(map[string]any); ok {
			d.setEmpty(ref, append(slices.Clone(at), "env", i, "valueFrom", "fieldRef"), "apiVersion", "v1")
		}
	}
}

// httpGet is SetDefaults_HTTPGetAction on handler.httpGet.
func (d *Defaults) httpGet(handler map[string]any, at []any) {
	if g, ok := handler["httpGet"].(map[string]any); ok {
		gat := append(slices.Clone(at), "httpGet")
		d.setEmpty(g, gat, "path", "/")
		d.setEmpty(g, gat, "scheme", "HTTP")
	}
}

// SetDefaults_Volume and the volume sources' defaults.
func (d *Defaults) volume(v map[string]any, at []any) {
	source := false
	for k := range v {
		if k != "name" && v[k] != nil {
			source = true
		}
	}
	if !source {
		d.set(v, at, "emptyDir", map[string]any{})
	}
	for _, kind := range []string{"secret", "configMap", "downwardAPI", "projected"} {
		if m, ok := v[kind].(map[string]any); ok {
			d.set(m, append(slices.Clone(at), kind), "defaultMode", int64(420))
		}
	}
	if m, ok := v["hostPath"].(map[string]any); ok {
		d.set(m, append(slices.Clone(at), "hostPath"), "type", "")
	}
	items, _ := manifest.Map(v, "downwardAPI")["items"].([]any)
	d.fieldRefs(items, append(slices.Clone(at), "downwardAPI", "items"))
	sources, _ := manifest.Map(v, "projected")["sources"].([]any)
	for i, raw := range sources {
		s, _ := raw.(map[string]any)
		sat := append(slices.Clone(at), "projected", "sources", i)
		if t, ok := s["serviceAccountToken"].(map[string]any); ok {
			d.set(t, append(slices.Clone(sat), "serviceAccountToken"), "expirationSeconds", int64(3600))
		}
		items, _ := manifest.Map(s, "downwardAPI")["items"].([]any)
		d.fieldRefs(items, append(slices.Clone(sat), "downwardAPI", "items"))
	}
}

// fieldRefs is SetDefaults_ObjectFieldSelector on downward API items.
func (d *Defaults) fieldRefs(items []any, at []any) {
	for i, raw := range items {
		it, _ := raw.(map[string]any)
		if ref, ok := it["fieldRef"].(map[string]any); ok {
			d.setEmpty(ref, append(slices.Clone(at), i, "fieldRef"), "apiVersion", "v1")
		}
	}
}

// SetDefaults_Service with the ports' declarative protocol.
func (d *Defaults) service(spec map[string]any) {
	at := p("spec")
	d.setEmpty(spec, at, "sessionAffinity", "None")
	switch manifest.String(spec, "sessionAffinity") {
	case "None":
		delete(spec, "sessionAffinityConfig")
	case "ClientIP":
		if n, _ := manifest.Lookup(spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds"); n == nil {
			cfg := d.child(spec, at, "sessionAffinityConfig")
			ip := d.child(cfg, p("spec", "sessionAffinityConfig"), "clientIP")
			d.set(ip, p("spec", "sessionAffinityConfig", "clientIP"), "timeoutSeconds", int64(10800))
		}
	}
	d.setEmpty(spec, at, "type", "ClusterIP")
	ports, _ := spec["ports"].([]any)
	for i, raw := range ports {
		m, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		pat := p("spec", "ports", i)
		d.setEmpty(m, pat, "protocol", "TCP")
		if tp := m["targetPort"]; tp == nil || tp == "" || isZero(tp) {
			if m["targetPort"] != nil {
				delete(m, "targetPort")
			}
			if port, ok := m["port"]; ok {
				d.set(m, pat, "targetPort", port)
			}
		}
	}
	typ := manifest.String(spec, "type")
	external := typ == "LoadBalancer" || typ == "NodePort"
	if ips, _ := spec["externalIPs"].([]any); typ == "ClusterIP" && len(ips) > 0 {
		external = true
	}
	if external {
		d.setEmpty(spec, at, "externalTrafficPolicy", "Cluster")
	}
	if typ == "NodePort" || typ == "LoadBalancer" || typ == "ClusterIP" {
		d.set(spec, at, "internalTrafficPolicy", "Cluster")
	}
	if typ == "LoadBalancer" {
		d.set(spec, at, "allocateLoadBalancerNodePorts", true)
	}
}

// imageTag is the tag parsers.ParseImageName gives: "latest" when the
// image has neither tag nor digest, "" when it has only a digest or does
// not parse (the caller then defaults to IfNotPresent; like
// distribution's reference grammar, a repository path must be lower case).
func imageTag(image string) string {
	name, digest, hasDigest := strings.Cut(image, "@")
	if name == "" || hasDigest && digest == "" {
		return ""
	}
	path := name
	if first, rest, ok := strings.Cut(name, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		path = rest // first is the registry host
	}
	tag := ""
	if i := strings.LastIndex(path, ":"); i >= 0 && !strings.Contains(path[i:], "/") {
		path, tag = path[:i], path[i+1:]
		if tag == "" {
			return ""
		}
	}
	if path == "" || strings.ToLower(path) != path {
		return ""
	}
	if tag == "" && !hasDigest {
		return "latest"
	}
	return tag
}

// set sets m[key] to v when it is absent or null, and records it.
func (d *Defaults) set(m map[string]any, at []any, key string, v any) {
	if m == nil || m[key] != nil {
		return
	}
	m[key] = v
	d.added = append(d.added, addedField{path: append(slices.Clone(at), key), value: manifest.DeepCopy(v)})
}

// setEmpty is set for a string field whose empty value is unset too.
func (d *Defaults) setEmpty(m map[string]any, at []any, key string, v any) {
	if m != nil && m[key] == "" {
		delete(m, key)
	}
	d.set(m, at, key, v)
}

// setZero is set for a number field whose zero is unset too.
func (d *Defaults) setZero(m map[string]any, at []any, key string, v any) {
	if m != nil && isZero(m[key]) {
		delete(m, key)
	}
	d.set(m, at, key, v)
}

// child returns the map at keys under m (at is m's path), creating and
// recording the missing ones; nil when a value on the way is not a map.
func (d *Defaults) child(m map[string]any, at []any, keys ...string) map[string]any {
	path := slices.Clone(at)
	for _, k := range keys {
		if m == nil {
			return nil
		}
		path = append(path, k)
		next, ok := m[k].(map[string]any)
		if !ok {
			if m[k] != nil {
				return nil
			}
			next = map[string]any{}
			m[k] = next
			d.created = append(d.created, slices.Clone(path))
		}
		m = next
	}
	return m
}

// p is a field path.
func p(keys ...any) []any { return keys }

func isZero(v any) bool {
	n, ok := toInt(v)
	return ok && n == 0
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Elide removes from obj (the template's copy after Karmada and its
// overrides) every default that still has the value Default gave it, and
// the maps Default created that this leaves empty: what remains is the
// template as written plus what Karmada and the overrides changed, as the
// conformance corpus's oracle (Karmada's code on templates as written)
// writes it. The member's API server defaults the object again; where a
// default depends on a field an override changed (imagePullPolicy after an
// image tag override, a Service's targetPort after a port override) the
// member defaults it from the new value, while the real Work carries
// karmada-apiserver's: see the package notes.
func (d *Defaults) Elide(obj *manifest.Object) {
	if d == nil {
		return
	}
	for _, a := range d.added {
		if v, ok := lookup(obj.Data, a.path); ok && sameValue(v, a.value) {
			remove(obj.Data, a.path)
		}
	}
	d.dropEmpty(obj.Data)
}

// dropEmpty removes the maps Default created that are empty, innermost
// first.
func (d *Defaults) dropEmpty(data map[string]any) {
	for i := len(d.created) - 1; i >= 0; i-- {
		if m, ok := lookupMap(data, d.created[i]); ok && len(m) == 0 {
			remove(data, d.created[i])
		}
	}
}

func lookupMap(data map[string]any, path []any) (map[string]any, bool) {
	v, ok := lookup(data, path)
	m, isMap := v.(map[string]any)
	return m, ok && isMap
}

// lookup returns the value at path (map keys and list indices).
func lookup(data map[string]any, path []any) (any, bool) {
	var cur any = data
	for _, k := range path {
		switch k := k.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			l, ok := cur.([]any)
			if !ok || k >= len(l) {
				return nil, false
			}
			cur = l[k]
		}
	}
	return cur, true
}

// remove deletes the map key at path.
func remove(data map[string]any, path []any) {
	parent, ok := lookup(data, path[:len(path)-1])
	if m, isMap := parent.(map[string]any); ok && isMap {
		delete(m, path[len(path)-1].(string))
	}
}

// sameValue compares two values of the JSON data model, numbers by value.
func sameValue(a, b any) bool {
	return reflect.DeepEqual(normalNumbers(a), normalNumbers(b))
}

func normalNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = normalNumbers(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalNumbers(x)
		}
		return out
	}
	if n, ok := toFloat(v); ok {
		return n
	}
	return v
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
