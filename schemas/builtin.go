package schemas

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	kfield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drydock-dev/drydock/manifest"
)

// The API server's own validation of built-in kinds (k8s.io/kubernetes
// pkg/apis/{core,apps,batch,policy,networking,autoscaling}/validation),
// the part their published schemas do not express, on the object as the
// API server sees it: defaults applied first (pkg/apis/*/v1/defaults.go),
// so what a default fills is not missing. Errors are worded as the API
// server words them (apimachinery's field errors); what the API server
// only warns about (pkg/api/pod/warnings.go) is a warning.

// builtinCheck collects what one object's checks find.
type builtinCheck struct {
	// minor is the Kubernetes minor version validating (1.30: 30).
	minor int
	errs  kfield.ErrorList
	warns []Finding
}

func (c *builtinCheck) add(errs ...*kfield.Error) { c.errs = append(c.errs, errs...) }

// warn is a warning the API server returns with a successful response.
func (c *builtinCheck) warn(p *kfield.Path, format string, args ...any) {
	c.warns = append(c.warns, Finding{Field: p.String(), Message: fmt.Sprintf(format, args...), Warning: true})
}

// nameFuncs are the name rules of ValidateObjectMeta per kind (group/Kind);
// a kind not listed has its name checked by its own rules, which drydock
// does not know: not checked.
var nameFuncs = map[string]apimachineryvalidation.ValidateNameFunc{
	"/Service":                            apimachineryvalidation.NameIsDNS1035Label,
	"/Namespace":                          apimachineryvalidation.ValidateNamespaceName,
	"/Pod":                                apimachineryvalidation.NameIsDNSSubdomain,
	"/PodTemplate":                        apimachineryvalidation.NameIsDNSSubdomain,
	"/ReplicationController":              apimachineryvalidation.NameIsDNSSubdomain,
	"/ConfigMap":                          apimachineryvalidation.NameIsDNSSubdomain,
	"/Secret":                             apimachineryvalidation.NameIsDNSSubdomain,
	"/ServiceAccount":                     apimachineryvalidation.NameIsDNSSubdomain,
	"/PersistentVolumeClaim":              apimachineryvalidation.NameIsDNSSubdomain,
	"/PersistentVolume":                   apimachineryvalidation.NameIsDNSSubdomain,
	"/LimitRange":                         apimachineryvalidation.NameIsDNSSubdomain,
	"/ResourceQuota":                      apimachineryvalidation.NameIsDNSSubdomain,
	"/Endpoints":                          apimachineryvalidation.NameIsDNSSubdomain,
	"apps/Deployment":                     apimachineryvalidation.NameIsDNSSubdomain,
	"apps/ReplicaSet":                     apimachineryvalidation.NameIsDNSSubdomain,
	"apps/StatefulSet":                    apimachineryvalidation.NameIsDNSSubdomain,
	"apps/DaemonSet":                      apimachineryvalidation.NameIsDNSSubdomain,
	"batch/Job":                           apimachineryvalidation.NameIsDNSSubdomain,
	"batch/CronJob":                       apimachineryvalidation.NameIsDNSSubdomain,
	"networking.k8s.io/Ingress":           apimachineryvalidation.NameIsDNSSubdomain,
	"networking.k8s.io/IngressClass":      apimachineryvalidation.NameIsDNSSubdomain,
	"networking.k8s.io/NetworkPolicy":     apimachineryvalidation.NameIsDNSSubdomain,
	"policy/PodDisruptionBudget":          apimachineryvalidation.NameIsDNSSubdomain,
	"autoscaling/HorizontalPodAutoscaler": apimachineryvalidation.NameIsDNSSubdomain,
	"storage.k8s.io/StorageClass":         apimachineryvalidation.NameIsDNSSubdomain,
	"scheduling.k8s.io/PriorityClass":     apimachineryvalidation.NameIsDNSSubdomain,
	// RBAC names are path segments ("system:controller:x" is valid).
	"rbac.authorization.k8s.io/Role":               pathSegmentName,
	"rbac.authorization.k8s.io/ClusterRole":        pathSegmentName,
	"rbac.authorization.k8s.io/RoleBinding":        pathSegmentName,
	"rbac.authorization.k8s.io/ClusterRoleBinding": pathSegmentName,
}

func anyName(string, bool) []string { return nil }

// pathSegmentName is the RBAC kinds' name rule.
func pathSegmentName(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// validateBuiltin is the API server's validation of a built-in kind that
// its schema leaves out, at Kubernetes 1.minor; namespaced says whether
// the kind is. It returns the errors and the warnings.
func validateBuiltin(obj map[string]any, minor int, namespaced bool) (kfield.ErrorList, []Finding) {
	c := &builtinCheck{minor: minor}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = ""
	}
	c.objectMeta(obj, group, kind, namespaced)
	spec := mapAt(obj, "spec")
	sp := kfield.NewPath("spec")
	switch group + "/" + kind {
	case "/Pod":
		c.podSpec(spec, sp)
	case "/PodTemplate":
		c.podTemplate(mapAt(obj, "template"), kfield.NewPath("template"))
	case "/ReplicationController":
		c.replicationController(spec, sp)
	case "/Service":
		c.service(spec, sp)
	case "/PersistentVolumeClaim":
		c.persistentVolumeClaim(spec, sp)
	case "/ConfigMap":
		c.configMap(obj, false)
	case "/Secret":
		c.configMap(obj, true)
	case "apps/Deployment", "apps/ReplicaSet":
		c.replicaSetLike(kind, spec, sp)
	case "apps/DaemonSet":
		c.daemonSet(spec, sp)
	case "apps/StatefulSet":
		c.statefulSet(spec, sp)
	case "batch/Job":
		c.jobSpec(spec, sp, true)
	case "batch/CronJob":
		c.cronJob(spec, sp)
	case "policy/PodDisruptionBudget":
		c.podDisruptionBudget(spec, sp)
	case "networking.k8s.io/Ingress":
		c.ingress(spec, sp)
	case "networking.k8s.io/NetworkPolicy":
		c.networkPolicy(spec, sp)
	case "autoscaling/HorizontalPodAutoscaler":
		c.horizontalPodAutoscaler(spec, sp)
	}
	return c.errs, c.warns
}

// objectMeta is ValidateObjectMeta with the kind's name rule. A
// namespaced object without a namespace gets the one kubectl gives it; a
// cluster-scoped one's is cleared, as the API server clears it.
func (c *builtinCheck) objectMeta(obj map[string]any, group, kind string, namespaced bool) {
	m := mapAt(obj, "metadata")
	meta := metav1.ObjectMeta{
		Name:         getStr(m, "name"),
		GenerateName: getStr(m, "generateName"),
		Namespace:    getStr(m, "namespace"),
		Labels:       manifest.StringMap(m, "labels"),
		Annotations:  manifest.StringMap(m, "annotations"),
	}
	for _, f := range getList(m, "finalizers") {
		if s, ok := f.(string); ok {
			meta.Finalizers = append(meta.Finalizers, s)
		}
	}
	if !namespaced {
		meta.Namespace = ""
	} else if meta.Namespace == "" {
		meta.Namespace = metav1.NamespaceDefault
	}
	nameFn := nameFuncs[group+"/"+kind]
	if nameFn == nil {
		nameFn = anyName
	}
	if meta.Name == "" && meta.GenerateName != "" {
		// The API server generates the name before validating it.
		meta.Name = meta.GenerateName + "xxxxx"
	}
	c.add(apimachineryvalidation.ValidateObjectMeta(&meta, namespaced, nameFn, kfield.NewPath("metadata"))...)
}

// templateMeta is ValidateTemplateObjectMeta: a pod template's labels and
// annotations.
func (c *builtinCheck) templateMeta(m map[string]any, p *kfield.Path) {
	c.add(metav1validation.ValidateLabels(manifest.StringMap(m, "labels"), p.Child("labels"))...)
	c.add(apimachineryvalidation.ValidateAnnotations(manifest.StringMap(m, "annotations"), p.Child("annotations"))...)
}

// podTemplate is ValidatePodTemplateSpec.
func (c *builtinCheck) podTemplate(t map[string]any, p *kfield.Path) {
	if t == nil {
		return
	}
	c.templateMeta(mapAt(t, "metadata"), p.Child("metadata"))
	c.podSpec(mapAt(t, "spec"), p.Child("spec"))
}

// podSpec is ValidatePodSpec (and the pod warnings of
// pkg/api/pod/warnings.go).
func (c *builtinCheck) podSpec(spec map[string]any, p *kfield.Path) {
	if spec == nil {
		return
	}
	volumes := map[string]bool{}
	vp := p.Child("volumes")
	for i, v := range getMaps(spec, "volumes") {
		name, np := getStr(v, "name"), vp.Index(i).Child("name")
		var el kfield.ErrorList
		sources := 0
		for k := range v {
			if k != "name" {
				sources++
			}
		}
		if sources == 0 {
			el = append(el, kfield.Required(vp.Index(i), "must specify a volume type"))
		}
		if name == "" {
			el = append(el, kfield.Required(np, ""))
		} else {
			el = append(el, dns1123Label(name, np)...)
		}
		if volumes[name] {
			el = append(el, kfield.Duplicate(np, name))
		}
		if len(el) == 0 {
			volumes[name] = true
		}
		c.add(el...)
	}
	containers := getMaps(spec, "containers")
	cp := p.Child("containers")
	if _, ok := spec["containers"]; ok && len(containers) == 0 {
		c.add(kfield.Required(cp, ""))
	}
	names := map[string]bool{}
	for i, ctr := range containers {
		at := cp.Index(i)
		c.container(ctr, at, volumes)
		name := getStr(ctr, "name")
		if names[name] {
			c.add(kfield.Duplicate(at.Child("name"), name))
		} else {
			names[name] = true
		}
		if l := mapAt(ctr, "lifecycle"); l != nil {
			c.lifecycle(l, at.Child("lifecycle"))
		}
		c.probe(mapAt(ctr, "livenessProbe"), at.Child("livenessProbe"), true)
		c.probe(mapAt(ctr, "readinessProbe"), at.Child("readinessProbe"), false)
		c.probe(mapAt(ctr, "startupProbe"), at.Child("startupProbe"), true)
		if _, ok := ctr["restartPolicy"]; ok {
			c.add(kfield.Forbidden(at.Child("restartPolicy"), "may not be set for non-init containers"))
		}
	}
	c.hostPorts(containers, cp)
	ip := p.Child("initContainers")
	for i, ctr := range getMaps(spec, "initContainers") {
		at := ip.Index(i)
		c.container(ctr, at, volumes)
		name := getStr(ctr, "name")
		if names[name] {
			c.add(kfield.Duplicate(at.Child("name"), name))
		} else if name != "" {
			names[name] = true
		}
		c.hostPorts([]map[string]any{ctr}, ip)
		// Sidecars (restartPolicy: Always) are on by default from 1.29.
		if getStr(ctr, "restartPolicy") == "Always" && c.minor >= 29 {
			if l := mapAt(ctr, "lifecycle"); l != nil {
				c.lifecycle(l, at.Child("lifecycle"))
			}
			c.probe(mapAt(ctr, "livenessProbe"), at.Child("livenessProbe"), true)
			c.probe(mapAt(ctr, "readinessProbe"), at.Child("readinessProbe"), false)
			c.probe(mapAt(ctr, "startupProbe"), at.Child("startupProbe"), true)
			continue
		}
		for _, f := range []string{"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"} {
			if _, ok := ctr[f]; ok {
				c.add(kfield.Forbidden(at.Child(f), "may not be set for init containers without restartPolicy=Always"))
			}
		}
	}
	c.add(metav1validation.ValidateLabels(manifest.StringMap(spec, "nodeSelector"), p.Child("nodeSelector"))...)
	c.tolerations(getMaps(spec, "tolerations"), p.Child("tolerations"))
	c.topologySpread(getMaps(spec, "topologySpreadConstraints"), p.Child("topologySpreadConstraints"))
	if n := getStr(spec, "serviceAccountName"); n != "" {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(n, false) {
			c.add(kfield.Invalid(p.Child("serviceAccountName"), n, msg))
		}
	}
	if v, ok := getInt(spec, "activeDeadlineSeconds"); ok && (v < 1 || v > math.MaxInt32) {
		c.add(kfield.Invalid(p.Child("activeDeadlineSeconds"), v, validation.InclusiveRangeError(1, math.MaxInt32)))
	}
	for _, f := range []string{"hostname", "subdomain"} {
		if v := getStr(spec, f); v != "" {
			c.add(dns1123Label(v, p.Child(f))...)
		}
	}
	if n := getStr(spec, "priorityClassName"); n != "" {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(n, false) {
			c.add(kfield.Invalid(p.Child("priorityClassName"), n, msg))
		}
	}
	// Warnings: duplicate or empty image pull secrets.
	pulls := map[string]bool{}
	for i, s := range getMaps(spec, "imagePullSecrets") {
		name, at := getStr(s, "name"), p.Child("imagePullSecrets").Index(i).Child("name")
		if pulls[name] {
			c.warn(at, "duplicate name %q", name)
		}
		pulls[name] = true
		if name == "" {
			c.warn(at, "invalid empty name %q", name)
		}
	}
	c.portWarnings(spec, p)
}

// tolerations is ValidateTolerations.
func (c *builtinCheck) tolerations(ts []map[string]any, p *kfield.Path) {
	for i, t := range ts {
		at := p.Index(i)
		key, op, value, effect := getStr(t, "key"), getStr(t, "operator"), getStr(t, "value"), getStr(t, "effect")
		if key != "" {
			c.add(metav1validation.ValidateLabelName(key, at.Child("key"))...)
		}
		if key == "" && op != "Exists" {
			c.add(kfield.Invalid(at.Child("operator"), op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if _, ok := t["tolerationSeconds"]; ok && effect != "NoExecute" {
			c.add(kfield.Invalid(at.Child("effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch op {
		case "", "Equal":
			if errs := validation.IsValidLabelValue(value); len(errs) > 0 {
				c.add(kfield.Invalid(at.Child("operator"), value, strings.Join(errs, ";")))
			}
		case "Exists":
			if value != "" {
				c.add(kfield.Invalid(at.Child("operator"), toleration{Key: key, Operator: op, Value: value, Effect: effect}, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			c.add(kfield.NotSupported(at.Child("operator"), op, []string{"Equal", "Exists"}))
		}
		switch effect {
		case "", "NoSchedule", "PreferNoSchedule", "NoExecute":
		default:
			c.add(kfield.NotSupported(at.Child("effect"), effect, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}))
		}
	}
}

// toleration prints as the API server prints a toleration: its internal
// type, without JSON tags.
type toleration struct {
	Key               string
	Operator          string
	Value             string
	Effect            string
	TolerationSeconds *int64
}

// topologySpread is the part of validateTopologySpreadConstraints about
// each constraint's skew and key, and a (topologyKey, whenUnsatisfiable)
// pair given twice, refused at its first entry.
func (c *builtinCheck) topologySpread(cs []map[string]any, p *kfield.Path) {
	for i, t := range cs {
		at := p.Index(i)
		if skew, ok := getInt(t, "maxSkew"); ok && skew <= 0 {
			c.add(kfield.Invalid(at.Child("maxSkew"), skew, "must be greater than zero"))
		}
		if _, ok := t["topologyKey"]; ok && getStr(t, "topologyKey") == "" {
			c.add(kfield.Required(at.Child("topologyKey"), "can not be empty"))
		}
		key, when := getStr(t, "topologyKey"), getStr(t, "whenUnsatisfiable")
		for _, rest := range cs[i+1:] {
			if getStr(rest, "topologyKey") == key && getStr(rest, "whenUnsatisfiable") == when {
				c.add(kfield.Duplicate(at.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", key, when)))
				break
			}
		}
	}
}

// container is validateContainerCommon.
func (c *builtinCheck) container(ctr map[string]any, p *kfield.Path, volumes map[string]bool) {
	name := getStr(ctr, "name")
	if name == "" {
		c.add(kfield.Required(p.Child("name"), ""))
	} else {
		c.add(dns1123Label(name, p.Child("name"))...)
	}
	if getStr(ctr, "image") == "" {
		c.add(kfield.Required(p.Child("image"), ""))
	}
	c.containerPorts(getMaps(ctr, "ports"), p.Child("ports"))
	c.env(getMaps(ctr, "env"), p.Child("env"))
	mounts := map[string]bool{}
	for i, m := range getMaps(ctr, "volumeMounts") {
		at := p.Child("volumeMounts").Index(i)
		name, mountPath := getStr(m, "name"), getStr(m, "mountPath")
		if name == "" {
			c.add(kfield.Required(at.Child("name"), ""))
		}
		if !volumes[name] {
			c.add(kfield.NotFound(at.Child("name"), name))
		}
		if mountPath == "" {
			c.add(kfield.Required(at.Child("mountPath"), ""))
		}
		if mounts[mountPath] {
			c.add(kfield.Invalid(at.Child("mountPath"), mountPath, "must be unique"))
		}
		mounts[mountPath] = true
	}
	c.resources(mapAt(ctr, "resources"), p.Child("resources"))
}

// containerPorts is validateContainerPorts; the protocol defaults to TCP.
func (c *builtinCheck) containerPorts(ports []map[string]any, p *kfield.Path) {
	names := map[string]bool{}
	for i, port := range ports {
		at := p.Index(i)
		if name := getStr(port, "name"); name != "" {
			if msgs := validation.IsValidPortName(name); len(msgs) > 0 {
				for _, msg := range msgs {
					c.add(kfield.Invalid(at.Child("name"), name, msg))
				}
			} else if names[name] {
				c.add(kfield.Duplicate(at.Child("name"), name))
			} else {
				names[name] = true
			}
		}
		if n, ok := getInt(port, "containerPort"); ok {
			if n == 0 {
				c.add(kfield.Required(at.Child("containerPort"), ""))
			} else {
				c.add(portNum(n, at.Child("containerPort"))...)
			}
		}
		if n, ok := getInt(port, "hostPort"); ok && n != 0 {
			c.add(portNum(n, at.Child("hostPort"))...)
		}
	}
}

// hostPorts is checkHostPortConflicts: a host port (with protocol and
// host IP) used twice among containers.
func (c *builtinCheck) hostPorts(containers []map[string]any, p *kfield.Path) {
	seen := map[string]bool{}
	for ci, ctr := range containers {
		for pi, port := range getMaps(ctr, "ports") {
			n, _ := getInt(port, "hostPort")
			if n == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", protocol(port), getStr(port, "hostIP"), n)
			if seen[key] {
				c.add(kfield.Duplicate(p.Index(ci).Child("ports").Index(pi).Child("hostPort"), key))
			}
			seen[key] = true
		}
	}
}

// portWarnings are the API server's warnings about container ports: the
// same port and protocol declared twice among all containers.
func (c *builtinCheck) portWarnings(spec map[string]any, p *kfield.Path) {
	type block struct {
		at       *kfield.Path
		hostIP   string
		hostPort int64
	}
	all := map[string][]block{}
	visit := func(list string) {
		for ci, ctr := range getMaps(spec, list) {
			for pi, port := range getMaps(ctr, "ports") {
				at := p.Child(list).Index(ci).Child("ports").Index(pi)
				cport, _ := getInt(port, "containerPort")
				hostPort, _ := getInt(port, "hostPort")
				b := block{at: at, hostIP: getStr(port, "hostIP"), hostPort: hostPort}
				k := fmt.Sprintf("%d/%s", cport, protocol(port))
				for _, other := range all[k] {
					switch {
					case b.hostIP == other.hostIP && b.hostPort == other.hostPort:
						c.warn(at, "duplicate port definition with %s", other.at)
					case b.hostPort == 0 || other.hostPort == 0:
						c.warn(at, "overlapping port definition with %s", other.at)
					}
				}
				all[k] = append(all[k], b)
			}
		}
	}
	visit("initContainers")
	visit("containers")
}

// env is ValidateEnv, with the duplicate-name warning of
// pkg/api/pod/warnings.go (the API server accepts a name given twice;
// server-side apply refuses it). Names are checked as C identifiers
// before 1.32 and as printable ASCII without '=' from it
// (RelaxedEnvironmentVariableValidation on by default).
func (c *builtinCheck) env(vars []map[string]any, p *kfield.Path) {
	seen := map[string]bool{}
	for i, ev := range vars {
		at := p.Index(i)
		name := getStr(ev, "name")
		if name == "" {
			c.add(kfield.Required(at.Child("name"), ""))
		} else {
			check := validation.IsEnvVarName
			if c.minor >= 32 {
				check = validation.IsRelaxedEnvVarName
			}
			for _, msg := range check(name) {
				c.add(kfield.Invalid(at.Child("name"), name, msg))
			}
		}
		value := getStr(ev, "value")
		_, valueFrom := ev["valueFrom"]
		if valueFrom && value != "" && len(mapAt(ev, "valueFrom")) > 0 {
			c.add(kfield.Invalid(at.Child("valueFrom"), "", "may not be specified when `value` is not empty"))
		}
		if seen[name] {
			ref := "$(" + name + ")"
			if valueFrom || value == ref || !strings.Contains(value, ref) {
				c.warn(at, "hides previous definition of %q, which may be dropped when using apply", name)
			}
		} else {
			seen[name] = true
		}
	}
}

// resources is the part of ValidateContainerResourceRequirements about
// quantities: each a quantity the API server decodes, not negative, and
// a request not above its limit.
func (c *builtinCheck) resources(r map[string]any, p *kfield.Path) {
	limits := c.quantities(mapAt(r, "limits"), p.Child("limits"))
	requests := c.quantities(mapAt(r, "requests"), p.Child("requests"))
	for _, name := range sortedKeys(requests) {
		q := requests[name]
		limit, ok := limits[name]
		switch {
		case !ok && !overcommitAllowed(name):
			c.add(kfield.Required(p.Child("limits"), "Limit must be set for non overcommitable resources"))
		case !ok:
		case !overcommitAllowed(name) && q.Cmp(limit) != 0:
			c.add(kfield.Invalid(p.Child("requests"), q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, limit.String())))
		case q.Cmp(limit) > 0:
			c.add(kfield.Invalid(p.Child("requests"), q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
		}
	}
}

// overcommitAllowed is helper.IsOvercommitAllowed: a native resource
// (no domain, or a kubernetes.io one) but hugepages may be requested below
// its limit; an extended resource's request equals its limit.
func overcommitAllowed(name string) bool {
	native := !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
	return native && !strings.HasPrefix(name, "hugepages-")
}

// quantities decodes a resource list; a value that is not a quantity is
// refused as the API server's decoding refuses it.
func (c *builtinCheck) quantities(m map[string]any, p *kfield.Path) map[string]resource.Quantity {
	out := map[string]resource.Quantity{}
	for _, name := range sortedKeys(m) {
		var q resource.Quantity
		var err error
		switch v := m[name].(type) {
		case string:
			q, err = resource.ParseQuantity(v)
		case int64:
			q = *resource.NewQuantity(v, resource.DecimalSI)
		case float64:
			q, err = resource.ParseQuantity(fmt.Sprint(v))
		default:
			continue // the schema says what is wrong
		}
		if err != nil {
			c.add(kfield.Invalid(p.Key(name), m[name], err.Error()))
			continue
		}
		if q.Sign() < 0 {
			c.add(kfield.Invalid(p.Key(name), q.String(), apimachineryvalidation.IsNegativeErrorMsg))
			continue
		}
		out[name] = q
	}
	return out
}

// probe is validateProbe (with the liveness and startup rule that the
// success threshold is 1, its default).
func (c *builtinCheck) probe(pr map[string]any, p *kfield.Path, successOne bool) {
	if pr == nil {
		return
	}
	c.handler(pr, p, []string{"exec", "httpGet", "tcpSocket", "grpc"})
	for _, f := range []string{"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"} {
		if v, ok := getInt(pr, f); ok {
			c.add(apimachineryvalidation.ValidateNonnegativeField(v, p.Child(f))...)
		}
	}
	if v, ok := getInt(pr, "successThreshold"); ok && successOne && v != 1 {
		c.add(kfield.Invalid(p.Child("successThreshold"), v, "must be 1"))
	}
	if v, ok := getInt(pr, "terminationGracePeriodSeconds"); ok {
		if !successOne {
			c.add(kfield.Invalid(p.Child("terminationGracePeriodSeconds"), v, "must not be set for readinessProbes"))
		} else if v <= 0 {
			c.add(kfield.Invalid(p.Child("terminationGracePeriodSeconds"), v, "must be greater than 0"))
		}
	}
}

// lifecycle is validateLifecycle.
func (c *builtinCheck) lifecycle(l map[string]any, p *kfield.Path) {
	kinds := []string{"exec", "httpGet", "tcpSocket"}
	if c.minor >= 29 {
		kinds = append(kinds, "sleep")
	}
	for _, h := range []string{"postStart", "preStop"} {
		if m := mapAt(l, h); m != nil {
			c.handler(m, p.Child(h), kinds)
		}
	}
}

// handler is validateHandler: exactly one handler of kinds, its port a
// number or a name.
func (c *builtinCheck) handler(h map[string]any, p *kfield.Path, kinds []string) {
	n := 0
	for _, k := range kinds {
		m, ok := h[k].(map[string]any)
		if !ok {
			continue
		}
		if n > 0 {
			c.add(kfield.Forbidden(p.Child(k), "may not specify more than 1 handler type"))
			continue
		}
		n++
		switch k {
		case "exec":
			if len(getList(m, "command")) == 0 {
				c.add(kfield.Required(p.Child(k, "command"), ""))
			}
		case "httpGet", "tcpSocket":
			if port, ok := getIntOrString(m, "port"); ok {
				c.add(portNumOrName(port, p.Child(k, "port"))...)
			}
		case "grpc":
			if port, ok := getInt(m, "port"); ok {
				c.add(portNum(port, p.Child(k, "port"))...)
			}
		}
	}
	if n == 0 {
		c.add(kfield.Required(p, "must specify a handler type"))
	}
}

// selector is the label selector checks of the workload kinds:
// ValidateLabelSelector, a non-empty selector, and the template's labels
// matching it. emptyMsg is the kind's refusal of an empty selector ("" for
// none).
func (c *builtinCheck) selector(spec map[string]any, p *kfield.Path, emptyMsg string) {
	raw, ok := spec["selector"].(map[string]any)
	if !ok {
		return
	}
	sel := labelSelector(raw)
	c.add(metav1validation.ValidateLabelSelector(sel, metav1validation.LabelSelectorValidationOptions{}, p.Child("selector"))...)
	if emptyMsg != "" && len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		c.add(kfield.Invalid(p.Child("selector"), sel, emptyMsg))
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil || s.Empty() {
		return
	}
	t := mapAt(spec, "template")
	tl := manifest.StringMap(mapAt(t, "metadata"), "labels")
	if !s.Matches(labels.Set(tl)) {
		c.add(kfield.Invalid(p.Child("template", "metadata", "labels"), tl, "`selector` does not match template `labels`"))
	}
}

// restartAlways is the rule of the controllers that keep pods running:
// the template's restart policy (default Always) is Always and it has no
// active deadline.
func (c *builtinCheck) restartAlways(spec map[string]any, p *kfield.Path, kind string) {
	ps := mapAt(mapAt(spec, "template"), "spec")
	if rp := getStr(ps, "restartPolicy"); rp != "" && rp != "Always" {
		c.add(kfield.NotSupported(p.Child("template", "spec", "restartPolicy"), rp, []string{"Always"}))
	}
	if _, ok := ps["activeDeadlineSeconds"]; ok {
		c.add(kfield.Forbidden(p.Child("template", "spec", "activeDeadlineSeconds"), fmt.Sprintf("activeDeadlineSeconds in %s is not Supported", kind)))
	}
}

func (c *builtinCheck) nonNegative(m map[string]any, p *kfield.Path, fields ...string) {
	for _, f := range fields {
		if v, ok := getInt(m, f); ok {
			c.add(apimachineryvalidation.ValidateNonnegativeField(v, p.Child(f))...)
		}
	}
}

// replicationController is ValidateReplicationControllerSpec.
func (c *builtinCheck) replicationController(spec map[string]any, p *kfield.Path) {
	c.nonNegative(spec, p, "minReadySeconds", "replicas")
	sel := manifest.StringMap(spec, "selector")
	t := mapAt(spec, "template")
	if len(sel) == 0 {
		// Defaulted from the template's labels.
		sel = manifest.StringMap(mapAt(t, "metadata"), "labels")
	}
	if len(sel) == 0 {
		c.add(kfield.Required(p.Child("selector"), ""))
	} else if tl := manifest.StringMap(mapAt(t, "metadata"), "labels"); !labels.SelectorFromSet(sel).Matches(labels.Set(tl)) {
		c.add(kfield.Invalid(p.Child("template", "metadata", "labels"), tl, "`selector` does not match template `labels`"))
	}
	c.podTemplate(t, p.Child("template"))
	c.restartAlways(spec, p, "ReplicationController")
}

// replicaSetLike is ValidateDeploymentSpec and ValidateReplicaSetSpec.
func (c *builtinCheck) replicaSetLike(kind string, spec map[string]any, p *kfield.Path) {
	c.nonNegative(spec, p, "replicas", "minReadySeconds", "revisionHistoryLimit")
	// Both kinds refuse an empty selector in the Deployment's words.
	c.selector(spec, p, "empty selector is invalid for deployment")
	c.podTemplate(mapAt(spec, "template"), p.Child("template"))
	c.restartAlways(spec, p, "ReplicaSet")
	if kind != "Deployment" {
		return
	}
	c.deploymentStrategy(mapAt(spec, "strategy"), p.Child("strategy"))
	minReady, _ := getInt(spec, "minReadySeconds")
	deadline, ok := getInt(spec, "progressDeadlineSeconds")
	if !ok {
		deadline = 600 // apps/v1's default
	}
	if ok {
		c.add(apimachineryvalidation.ValidateNonnegativeField(deadline, p.Child("progressDeadlineSeconds"))...)
	}
	if deadline <= minReady {
		c.add(kfield.Invalid(p.Child("progressDeadlineSeconds"), deadline, "must be greater than minReadySeconds"))
	}
}

// deploymentStrategy is ValidateDeploymentStrategy with apps/v1's
// defaults (RollingUpdate, 25% and 25%).
func (c *builtinCheck) deploymentStrategy(s map[string]any, p *kfield.Path) {
	typ := getStr(s, "type")
	ru, hasRU := s["rollingUpdate"].(map[string]any)
	switch typ {
	case "Recreate":
		if hasRU {
			c.add(kfield.Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
		}
	case "", "RollingUpdate":
		maxUnavailable, ok := getIntOrString(ru, "maxUnavailable")
		if !ok {
			maxUnavailable = intstr.FromString("25%")
		}
		maxSurge, ok := getIntOrString(ru, "maxSurge")
		if !ok {
			maxSurge = intstr.FromString("25%")
		}
		rp := p.Child("rollingUpdate")
		c.add(positiveIntOrPercent(maxUnavailable, rp.Child("maxUnavailable"))...)
		c.add(positiveIntOrPercent(maxSurge, rp.Child("maxSurge"))...)
		if intOrPercentValue(maxUnavailable) == 0 && intOrPercentValue(maxSurge) == 0 {
			c.add(kfield.Invalid(rp.Child("maxUnavailable"), maxUnavailable, "may not be 0 when `maxSurge` is 0"))
		}
		c.add(notMoreThan100Percent(maxUnavailable, rp.Child("maxUnavailable"))...)
	}
}

// daemonSet is ValidateDaemonSetSpec with apps/v1's defaults
// (RollingUpdate, maxUnavailable 1, maxSurge 0).
func (c *builtinCheck) daemonSet(spec map[string]any, p *kfield.Path) {
	c.selector(spec, p, "empty selector is invalid for daemonset")
	c.podTemplate(mapAt(spec, "template"), p.Child("template"))
	c.restartAlways(spec, p, "DaemonSet")
	c.nonNegative(spec, p, "minReadySeconds", "revisionHistoryLimit")
	s := mapAt(spec, "updateStrategy")
	if typ := getStr(s, "type"); typ != "" && typ != "RollingUpdate" {
		return
	}
	ru := mapAt(s, "rollingUpdate")
	maxUnavailable, ok := getIntOrString(ru, "maxUnavailable")
	if !ok {
		maxUnavailable = intstr.FromInt32(1)
	}
	maxSurge, ok := getIntOrString(ru, "maxSurge")
	if !ok {
		maxSurge = intstr.FromInt32(0)
	}
	rp := p.Child("updateStrategy", "rollingUpdate")
	c.add(positiveIntOrPercent(maxUnavailable, rp.Child("maxUnavailable"))...)
	c.add(positiveIntOrPercent(maxSurge, rp.Child("maxSurge"))...)
	c.add(notMoreThan100Percent(maxUnavailable, rp.Child("maxUnavailable"))...)
	c.add(notMoreThan100Percent(maxSurge, rp.Child("maxSurge"))...)
	hasUnavailable, hasSurge := intOrPercentValue(maxUnavailable) != 0, intOrPercentValue(maxSurge) != 0
	switch {
	case hasUnavailable && hasSurge:
		c.add(kfield.Invalid(rp.Child("maxSurge"), maxSurge, "may not be set when maxUnavailable is non-zero"))
	case !hasUnavailable && !hasSurge:
		c.add(kfield.Required(rp.Child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
	}
}

// statefulSet is ValidateStatefulSetSpec: the API server checks the pod
// template's labels and annotations but not its pod spec.
func (c *builtinCheck) statefulSet(spec map[string]any, p *kfield.Path) {
	s := mapAt(spec, "updateStrategy")
	switch getStr(s, "type") {
	case "OnDelete":
		if ru, ok := s["rollingUpdate"].(map[string]any); ok {
			c.add(kfield.Invalid(p.Child("updateStrategy", "rollingUpdate"), ru, "only allowed for updateStrategy 'RollingUpdate'"))
		}
	case "", "RollingUpdate":
		c.nonNegative(mapAt(s, "rollingUpdate"), p.Child("updateStrategy", "rollingUpdate"), "partition")
	}
	c.nonNegative(spec, p, "replicas", "minReadySeconds")
	c.selector(spec, p, "empty selector is invalid for statefulset")
	c.templateMeta(mapAt(mapAt(spec, "template"), "metadata"), p.Child("template"))
	c.restartAlways(spec, p, "StatefulSet")
}

// jobSpec is validateJobSpec (and ValidateJobSpec's selector when
// selector is true: a Job's, not a CronJob's template).
func (c *builtinCheck) jobSpec(spec map[string]any, p *kfield.Path, selector bool) {
	if spec == nil {
		return
	}
	c.nonNegative(spec, p, "parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished")
	if selector {
		c.selector(spec, p, "")
	}
	c.podTemplate(mapAt(spec, "template"), p.Child("template"))
	rp := getStr(mapAt(mapAt(spec, "template"), "spec"), "restartPolicy")
	if rp == "" {
		rp = "Always" // the pod spec's default
	}
	if rp != "OnFailure" && rp != "Never" {
		c.add(kfield.NotSupported(p.Child("template", "spec", "restartPolicy"), rp, []string{"OnFailure", "Never"}))
	}
}

// cronJob is ValidateCronJobSpec (the schedule's syntax is not checked).
func (c *builtinCheck) cronJob(spec map[string]any, p *kfield.Path) {
	c.nonNegative(spec, p, "startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit")
	jt := mapAt(spec, "jobTemplate")
	c.templateMeta(mapAt(jt, "metadata"), p.Child("jobTemplate", "metadata"))
	c.jobSpec(mapAt(jt, "spec"), p.Child("jobTemplate", "spec"), false)
}

// service is ValidateService with its defaults (type ClusterIP, protocol
// TCP, targetPort the port).
func (c *builtinCheck) service(spec map[string]any, p *kfield.Path) {
	typ := getStr(spec, "type")
	if typ == "" {
		typ = "ClusterIP"
	}
	headless := getStr(spec, "clusterIP") == "None"
	if ips := getList(spec, "clusterIPs"); len(ips) > 0 && ips[0] == "None" {
		headless = true
	}
	ports := getMaps(spec, "ports")
	pp := p.Child("ports")
	if len(ports) == 0 && !headless && typ != "ExternalName" {
		c.add(kfield.Required(pp, ""))
	}
	if typ == "ExternalName" {
		if cname := strings.TrimSuffix(getStr(spec, "externalName"), "."); cname == "" {
			c.add(kfield.Required(p.Child("externalName"), ""))
		} else {
			for _, msg := range validation.IsDNS1123Subdomain(cname) {
				c.add(kfield.Invalid(p.Child("externalName"), cname, msg))
			}
		}
	}
	names := map[string]bool{}
	type key struct {
		protocol string
		port     int64
	}
	seenPorts, seenNodePorts := map[key]bool{}, map[key]bool{}
	for i, port := range ports {
		at := pp.Index(i)
		name := getStr(port, "name")
		switch {
		case len(ports) > 1 && name == "":
			c.add(kfield.Required(at.Child("name"), ""))
		case name != "":
			c.add(dns1123Label(name, at.Child("name"))...)
			if names[name] {
				c.add(kfield.Duplicate(at.Child("name"), name))
			}
			names[name] = true
		}
		n, ok := getInt(port, "port")
		if ok { // the schema requires it
			c.add(portNum(n, at.Child("port"))...)
		}
		if tp, ok := getIntOrString(port, "targetPort"); ok && !(tp.Type == intstr.Int && tp.IntVal == 0) {
			c.add(portNumOrName(tp, at.Child("targetPort"))...)
		}
		if ap := getStr(port, "appProtocol"); ap != "" {
			for _, msg := range validation.IsQualifiedName(ap) {
				c.add(kfield.Invalid(at.Child("appProtocol"), ap, msg))
			}
		}
		nodePort, _ := getInt(port, "nodePort")
		if typ == "ClusterIP" && nodePort != 0 {
			c.add(kfield.Forbidden(at.Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
		}
		if nodePort != 0 {
			k := key{protocol(port), nodePort}
			if seenNodePorts[k] {
				c.add(kfield.Duplicate(at.Child("nodePort"), nodePort))
			}
			seenNodePorts[k] = true
		}
		k := key{protocol(port), n}
		if seenPorts[k] {
			c.add(kfield.Duplicate(at, servicePortKey{Protocol: k.protocol, Port: int32(k.port), TargetPort: intstr.FromInt32(0)}))
		}
		seenPorts[k] = true
	}
	c.add(metav1validation.ValidateLabels(manifest.StringMap(spec, "selector"), p.Child("selector"))...)
	if _, ok := spec["loadBalancerSourceRanges"]; ok && typ != "LoadBalancer" && len(getList(spec, "loadBalancerSourceRanges")) > 0 {
		c.add(kfield.Forbidden(p.Child("LoadBalancerSourceRanges"), "may only be used when `type` is 'LoadBalancer'"))
	}
}

// persistentVolumeClaim is the access modes and storage request of
// ValidatePersistentVolumeClaimSpec (ReadWriteOncePod from 1.27, when it
// is on by default).
func (c *builtinCheck) persistentVolumeClaim(spec map[string]any, p *kfield.Path) {
	supported := []string{"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"}
	if c.minor >= 27 {
		supported = append(supported, "ReadWriteOncePod")
	}
	modes := getList(spec, "accessModes")
	if len(modes) == 0 {
		c.add(kfield.Required(p.Child("accessModes"), "at least 1 access mode is required"))
	}
	for _, m := range modes {
		if s, ok := m.(string); ok && !slices.Contains(supported, s) {
			c.add(kfield.NotSupported(p.Child("accessModes"), s, supported))
		}
	}
	if _, ok := mapAt(mapAt(spec, "resources"), "requests")["storage"]; !ok {
		c.add(kfield.Required(p.Child("resources").Key("storage"), ""))
	}
}

// servicePortKey prints as the API server prints the (protocol, port)
// key of a duplicate Service port: its internal ServicePort type, which
// has no JSON tags.
type servicePortKey struct {
	Name        string
	Protocol    string
	AppProtocol *string
	Port        int32
	TargetPort  intstr.IntOrString
	NodePort    int32
}

// configMap is ValidateConfigMap and ValidateSecret's keys: each a valid
// config key, none in both data and binaryData (a ConfigMap's) .
func (c *builtinCheck) configMap(obj map[string]any, secret bool) {
	data := mapAt(obj, "data")
	for _, k := range sortedKeys(data) {
		for _, msg := range validation.IsConfigMapKey(k) {
			if secret {
				c.add(kfield.Invalid(kfield.NewPath("data").Key(k), "<secret contents redacted>", msg))
			} else {
				c.add(kfield.Invalid(kfield.NewPath("data").Key(k), k, msg))
			}
		}
	}
	if secret {
		for _, k := range sortedKeys(mapAt(obj, "stringData")) {
			for _, msg := range validation.IsConfigMapKey(k) {
				c.add(kfield.Invalid(kfield.NewPath("stringData").Key(k), "<secret contents redacted>", msg))
			}
		}
		return
	}
	binary := mapAt(obj, "binaryData")
	for _, k := range sortedKeys(binary) {
		for _, msg := range validation.IsConfigMapKey(k) {
			c.add(kfield.Invalid(kfield.NewPath("binaryData").Key(k), k, msg))
		}
		if _, ok := data[k]; ok {
			c.add(kfield.Invalid(kfield.NewPath("binaryData").Key(k), k, "duplicate of key present in data"))
		}
	}
}

// podDisruptionBudget is ValidatePodDisruptionBudgetSpec.
func (c *builtinCheck) podDisruptionBudget(spec map[string]any, p *kfield.Path) {
	minAvailable, hasMin := getIntOrString(spec, "minAvailable")
	maxUnavailable, hasMax := getIntOrString(spec, "maxUnavailable")
	if hasMin && hasMax {
		c.add(kfield.Invalid(p, spec, "minAvailable and maxUnavailable cannot be both set"))
	}
	if hasMin {
		c.add(positiveIntOrPercent(minAvailable, p.Child("minAvailable"))...)
		c.add(notMoreThan100Percent(minAvailable, p.Child("minAvailable"))...)
	}
	if hasMax {
		c.add(positiveIntOrPercent(maxUnavailable, p.Child("maxUnavailable"))...)
		c.add(notMoreThan100Percent(maxUnavailable, p.Child("maxUnavailable"))...)
	}
	if raw, ok := spec["selector"].(map[string]any); ok {
		c.add(metav1validation.ValidateLabelSelector(labelSelector(raw), metav1validation.LabelSelectorValidationOptions{}, p.Child("selector"))...)
	}
}

// ingress is the backend and path part of ValidateIngressSpec
// (networking.k8s.io/v1).
func (c *builtinCheck) ingress(spec map[string]any, p *kfield.Path) {
	if b := mapAt(spec, "defaultBackend"); b != nil {
		c.ingressBackend(b, p.Child("defaultBackend"))
	}
	for i, r := range getMaps(spec, "rules") {
		at := p.Child("rules").Index(i)
		if host := getStr(r, "host"); host != "" {
			check := validation.IsDNS1123Subdomain
			if strings.Contains(host, "*") {
				check = validation.IsWildcardDNS1123Subdomain
			}
			for _, msg := range check(host) {
				c.add(kfield.Invalid(at.Child("host"), host, msg))
			}
		}
		for j, hp := range getMaps(mapAt(r, "http"), "paths") {
			pp := at.Child("http", "paths").Index(j)
			path, typ := getStr(hp, "path"), getStr(hp, "pathType")
			// ImplementationSpecific takes an empty path.
			if !strings.HasPrefix(path, "/") && (typ == "Exact" || typ == "Prefix" || path != "") {
				c.add(kfield.Invalid(pp.Child("path"), path, "must be an absolute path"))
			}
			if b := mapAt(hp, "backend"); b != nil {
				c.ingressBackend(b, pp.Child("backend"))
			}
		}
	}
}

// ingressBackend is validateIngressBackend: a service and a port name or
// number, or a resource.
func (c *builtinCheck) ingressBackend(b map[string]any, p *kfield.Path) {
	svc, hasSvc := b["service"].(map[string]any)
	_, hasResource := b["resource"].(map[string]any)
	switch {
	case hasSvc && hasResource:
		c.add(kfield.Invalid(p, "", "cannot set both resource and service backends"))
		return
	case !hasSvc && !hasResource:
		c.add(kfield.Invalid(p, "", "resource or service backend is required"))
		return
	case !hasSvc:
		return
	}
	sp := p.Child("service")
	if name := getStr(svc, "name"); name == "" {
		c.add(kfield.Required(sp.Child("name"), ""))
	} else {
		for _, msg := range apimachineryvalidation.NameIsDNS1035Label(name, false) {
			c.add(kfield.Invalid(sp.Child("name"), name, msg))
		}
	}
	port := mapAt(svc, "port")
	name := getStr(port, "name")
	number, _ := getInt(port, "number")
	switch {
	case name != "" && number != 0:
		c.add(kfield.Invalid(p, "", "cannot set both port name & port number"))
	case name != "":
		for _, msg := range validation.IsValidPortName(name) {
			c.add(kfield.Invalid(sp.Child("port", "name"), name, msg))
		}
	case number != 0:
		c.add(portNum(number, sp.Child("port", "number"))...)
	default:
		c.add(kfield.Required(p, "port name or number is required"))
	}
}

// networkPolicy is the selector and port part of ValidateNetworkPolicySpec.
func (c *builtinCheck) networkPolicy(spec map[string]any, p *kfield.Path) {
	if raw, ok := spec["podSelector"].(map[string]any); ok {
		c.add(metav1validation.ValidateLabelSelector(labelSelector(raw), metav1validation.LabelSelectorValidationOptions{}, p.Child("podSelector"))...)
	}
	for _, dir := range []string{"ingress", "egress"} {
		for i, rule := range getMaps(spec, dir) {
			for j, port := range getMaps(rule, "ports") {
				at := p.Child(dir).Index(i).Child("ports").Index(j)
				pv, ok := getIntOrString(port, "port")
				if !ok {
					continue
				}
				if pv.Type == intstr.Int {
					c.add(portNum(int64(pv.IntVal), at.Child("port"))...)
					if end, ok := getInt(port, "endPort"); ok && end < int64(pv.IntVal) {
						c.add(kfield.Invalid(at.Child("endPort"), end, "must be greater than or equal to `port`"))
					}
				} else {
					for _, msg := range validation.IsValidPortName(pv.StrVal) {
						c.add(kfield.Invalid(at.Child("port"), pv.StrVal, msg))
					}
					if _, ok := port["endPort"]; ok {
						c.add(kfield.Forbidden(at.Child("endPort"), "may not be specified when `port` is non-numeric"))
					}
				}
			}
		}
	}
}

// horizontalPodAutoscaler is the replica bounds of
// validateHorizontalPodAutoscalerSpec.
func (c *builtinCheck) horizontalPodAutoscaler(spec map[string]any, p *kfield.Path) {
	minReplicas, hasMin := getInt(spec, "minReplicas")
	if hasMin && minReplicas < 1 {
		c.add(kfield.Invalid(p.Child("minReplicas"), minReplicas, "must be greater than or equal to 1"))
	}
	maxReplicas, ok := getInt(spec, "maxReplicas")
	if !ok {
		return
	}
	if maxReplicas < 1 {
		c.add(kfield.Invalid(p.Child("maxReplicas"), maxReplicas, "must be greater than 0"))
	}
	if hasMin && maxReplicas < minReplicas {
		c.add(kfield.Invalid(p.Child("maxReplicas"), maxReplicas, "must be greater than or equal to `minReplicas`"))
	}
}

// portNum is IsValidPortNum as a field error.
func portNum(n int64, p *kfield.Path) kfield.ErrorList {
	var errs kfield.ErrorList
	if n < math.MinInt32 || n > math.MaxInt32 {
		return append(errs, kfield.Invalid(p, n, validation.InclusiveRangeError(1, 65535)))
	}
	for _, msg := range validation.IsValidPortNum(int(n)) {
		errs = append(errs, kfield.Invalid(p, int32(n), msg))
	}
	return errs
}

// portNumOrName is ValidatePortNumOrName: a port number or an IANA
// service name.
func portNumOrName(port intstr.IntOrString, p *kfield.Path) kfield.ErrorList {
	if port.Type == intstr.Int {
		return portNum(int64(port.IntVal), p)
	}
	var errs kfield.ErrorList
	for _, msg := range validation.IsValidPortName(port.StrVal) {
		errs = append(errs, kfield.Invalid(p, port.StrVal, msg))
	}
	return errs
}

// positiveIntOrPercent is apps' ValidatePositiveIntOrPercent: a
// non-negative number or a percentage.
func positiveIntOrPercent(v intstr.IntOrString, p *kfield.Path) kfield.ErrorList {
	if v.Type == intstr.String {
		var errs kfield.ErrorList
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			errs = append(errs, kfield.Invalid(p, v, msg))
		}
		return errs
	}
	return apimachineryvalidation.ValidateNonnegativeField(int64(v.IntVal), p)
}

// notMoreThan100Percent is apps' IsNotMoreThan100Percent.
func notMoreThan100Percent(v intstr.IntOrString, p *kfield.Path) kfield.ErrorList {
	n, ok := percentValue(v)
	if !ok || n <= 100 {
		return nil
	}
	return kfield.ErrorList{kfield.Invalid(p, v, "must not be greater than 100%")}
}

func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String {
		return 0, false
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok || len(validation.IsValidPercent(v.StrVal)) > 0 {
		return 0, false
	}
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n, true
}

// intOrPercentValue is apps' getIntOrPercentValue: a percentage's
// number, else IntOrString's IntValue (a string that is not a number is
// 0).
func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

func dns1123Label(v string, p *kfield.Path) kfield.ErrorList {
	var errs kfield.ErrorList
	for _, msg := range validation.IsDNS1123Label(v) {
		errs = append(errs, kfield.Invalid(p, v, msg))
	}
	return errs
}

// protocol is a port's protocol, TCP by default.
func protocol(port map[string]any) string {
	if p := getStr(port, "protocol"); p != "" {
		return p
	}
	return "TCP"
}

func labelSelector(raw map[string]any) *metav1.LabelSelector {
	sel := &metav1.LabelSelector{MatchLabels: manifest.StringMap(raw, "matchLabels")}
	for _, e := range getMaps(raw, "matchExpressions") {
		r := metav1.LabelSelectorRequirement{Key: getStr(e, "key"), Operator: metav1.LabelSelectorOperator(getStr(e, "operator"))}
		for _, v := range getList(e, "values") {
			if s, ok := v.(string); ok {
				r.Values = append(r.Values, s)
			}
		}
		sel.MatchExpressions = append(sel.MatchExpressions, r)
	}
	return sel
}

// Readers of a decoded object that take what has the expected type and
// ignore the rest (the schema reports a wrong type).

func mapAt(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}

func getList(m map[string]any, k string) []any {
	v, _ := m[k].([]any)
	return v
}

// maps are the objects of the list at k (nil for what is not one, so
// indexes stay those of the list).
func getMaps(m map[string]any, k string) []map[string]any {
	l := getList(m, k)
	out := make([]map[string]any, len(l))
	for i, v := range l {
		out[i], _ = v.(map[string]any)
	}
	return out
}

func getStr(m map[string]any, k string) string {
	v, _ := m[k].(string)
	return v
}

// integer is the whole number at k.
func getInt(m map[string]any, k string) (int64, bool) {
	switch v := m[k].(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v), true
		}
	}
	return 0, false
}

// intOrString is the IntOrString at k.
func getIntOrString(m map[string]any, k string) (intstr.IntOrString, bool) {
	if s, ok := m[k].(string); ok {
		return intstr.FromString(s), true
	}
	if n, ok := getInt(m, k); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
		return intstr.FromInt32(int32(n)), true
	}
	return intstr.IntOrString{}, false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
