package stepexec

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/render/patch"
)

// legacyProvider is the provider of the legacy vela/op actions: their
// parameters and results are the field itself, not $params and $returns.
const legacyProvider = "op"

// actions are the provider functions by provider and #do, as KubeVela
// registers them (kubevela pkg/workflow/providers/compiler.go).
var actions = map[string]map[string]action{
	"builtin": {"wait": doWait, "suspend": doSuspend, "break": doBreak, "fail": doFail, "message": doMessage, "var": doVar},
	"util":    {"patch-k8s-object": doPatchObject, "string": doString, "log": doLog},
	"time":    {"timestamp": doTimestamp, "date": doDate},
	"http":    {"do": doHTTP},
	"email":   {"send": doEmail},
	"metrics": {"promCheck": doPromCheck},
	"kube": {"apply": doApply, "apply-in-parallel": doApplyInParallel, "patch": doPatch, "read": doRead,
		"list": doList, "delete": doDelete},
	"config": {"create": doCreateConfig, "read": doReadConfig, "list": doListConfig, "delete": doDeleteConfig},
	"oam": {"component-apply": doApplyComponent, "component-render": doRenderComponent, "load": doLoad,
		"load-comps-in-order": doLoadInOrder, "load-policies": doLoadPolicies},
	"multicluster": {"list-clusters": doListClusters, "get-placements-from-topology-policies": doPlacements, "deploy": doDeploy},
	"query":        {"collectServiceEndpoints": doServiceEndpoints},
	"terraform":    {"load-terraform-components": doTerraform, "get-connection-status": doTerraform},
}

// legacyActions are vela/op's (kubevela pkg/workflow/providers/legacy).
var legacyActions = func() map[string]action {
	out := map[string]action{}
	for _, p := range []string{"builtin", "util", "time", "http", "email", "metrics", "kube", "oam", "multicluster", "terraform"} {
		for do, a := range actions[p] {
			out[do] = a
		}
	}
	for do, a := range actions["config"] {
		out[do+"-config"] = a
	}
	out["make-placement-decisions"] = doPlacementDecisions
	out["patch-application"] = doPatchApplication
	return out
}()

// unanswered are the query functions that read what only a live
// cluster holds.
var unanswered = map[string]bool{"listResourcesInApp": true, "listAppliedResources": true, "collectResources": true,
	"searchEvents": true, "collectLogsInPod": true}

func lookupAction(prov, do string) (action, error) {
	if prov == legacyProvider {
		if a, ok := legacyActions[do]; ok {
			return a, nil
		}
		return nil, fmt.Errorf("function %s not found in provider %s", do, prov)
	}
	if prov == "ql" {
		prov = "query"
	}
	if prov == "query" && unanswered[do] {
		return nil, fmt.Errorf("query.%s reads the live state of clusters, which drydock does not have", do)
	}
	fns, ok := actions[prov]
	if !ok {
		return nil, fmt.Errorf("provider %s not found", prov)
	}
	if a, ok := fns[do]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("function %s not found in provider %s", do, prov)
}

// Workspace actions (kubevela/workflow pkg/providers/builtin/workspace.go).

func doWait(c *call) (map[string]any, error) {
	cont, known := c.params["continue"].(bool)
	if !known {
		return nil, c.wait(false, "its condition is not known offline")
	}
	if cont {
		c.tracef("  wait at %s: condition holds", c.path)
		return nil, nil
	}
	return nil, c.wait(false, "condition false")
}

func doSuspend(c *call) (map[string]any, error) {
	if d := c.str("duration"); d != "" {
		if _, err := time.ParseDuration(d); err != nil {
			return nil, c.errf("failed to parse duration %s: %w", d, err)
		}
	}
	label, _ := c.node.Label()
	c.res.Message = "Suspended by field " + label
	if m := c.str("message"); m != "" {
		c.res.Message = m
	}
	if c.opts.StopAtSuspend {
		c.tracef("  suspended at %s: stopping (--stop-at-suspend)", c.path)
		c.res.Suspended = true
		return nil, errStop
	}
	c.tracef("  suspended at %s: taken as resumed", c.path)
	return nil, nil
}

func doBreak(c *call) (map[string]any, error) {
	c.res.Terminated = true
	c.res.Message = c.str("message")
	c.tracef("  break at %s: the workflow terminates", c.path)
	return nil, errStop
}

func doFail(c *call) (map[string]any, error) {
	c.res.Message = c.str("message")
	c.tracef("  fail at %s: %s", c.path, c.res.Message)
	return nil, fmt.Errorf("%w: %s", ErrFailed, c.res.Message)
}

func doMessage(c *call) (map[string]any, error) {
	if m := c.str("message"); m != "" {
		c.res.Message = m
	}
	c.tracef("  message: %s", c.str("message"))
	return nil, nil
}

func doVar(c *call) (map[string]any, error) {
	p := c.str("path")
	if c.str("method") == "Put" {
		c.tracef("  var put %s", p)
		return nil, c.host.PutVar(p, c.params["value"])
	}
	v, err := c.host.GetVar(p)
	if err != nil {
		return nil, c.errf("%w", err)
	}
	c.tracef("  var get %s", p)
	return map[string]any{"value": v}, nil
}

// Util actions (kubevela/workflow pkg/providers/util/util.go).

func doPatchObject(c *call) (map[string]any, error) {
	at := "$params."
	if c.legacy {
		at = ""
	}
	base := c.node.LookupPath(cue.ParsePath(at + "value"))
	p := c.node.LookupPath(cue.ParsePath(at + "patch"))
	out, err := patch.Apply(c.node.Context(), base, p)
	if err != nil {
		return nil, c.errf("%w", err)
	}
	var obj map[string]any
	if err := out.Decode(&obj); err != nil {
		return nil, c.errf("%w", err)
	}
	c.tracef("  patch-k8s-object at %s", c.path)
	return map[string]any{"result": obj}, nil
}

func doString(c *call) (map[string]any, error) {
	b, err := base64.StdEncoding.DecodeString(c.str("bt"))
	if err != nil {
		return nil, c.errf("%w", err)
	}
	return map[string]any{"str": string(b)}, nil
}

// doLog records the data logged, or the log source a step names (the
// logs of resources or a URL, which only the live cluster has).
func doLog(c *call) (map[string]any, error) {
	data, ok := c.params["data"]
	if !ok {
		b, _ := json.Marshal(c.params["source"])
		c.tracef("  log source %s: not collected offline", b)
		return nil, nil
	}
	if s, ok := data.(string); ok {
		c.tracef("  log: %s", s)
		return nil, nil
	}
	b, _ := json.Marshal(data)
	c.tracef("  log: %s", b)
	return nil, nil
}

// Time actions (kubevela/workflow pkg/providers/time/time.go).

func doTimestamp(c *call) (map[string]any, error) {
	layout := c.str("layout")
	if layout == "" {
		layout = time.RFC3339
	}
	t, err := time.Parse(layout, c.str("date"))
	if err != nil {
		return nil, c.errf("%w", err)
	}
	return map[string]any{"timestamp": t.Unix()}, nil
}

func doDate(c *call) (map[string]any, error) {
	layout := c.str("layout")
	if layout == "" {
		layout = time.RFC3339
	}
	ts, _ := c.params["timestamp"].(int64)
	return map[string]any{"date": time.Unix(ts, 0).UTC().Format(layout)}, nil
}

// Network actions: never sent.

// doHTTP records the request and answers as a successful one does
// (kubevela/workflow pkg/providers/http/http.go: statusCode, header and
// body); the body is unknown, so it is empty, and a template that reads
// it fails naming the URL (Run's check).
func doHTTP(c *call) (map[string]any, error) {
	url, method := c.str("url"), c.str("method")
	if method == "" {
		method = "GET"
	}
	c.http = append(c.http, url)
	c.tracef("  http %s %s: not sent (drydock never reaches the network); answered 200 with an empty body", method, url)
	resp := map[string]any{"statusCode": int64(200), "body": "", "header": map[string]any{}}
	if c.legacy {
		return map[string]any{"response": resp}, nil
	}
	return resp, nil
}

// doEmail records the email (pkg/providers/email/email.go returns nothing).
func doEmail(c *call) (map[string]any, error) {
	from, _ := c.obj("from")["address"].(string)
	var to []string
	if l, ok := c.params["to"].([]any); ok {
		for _, x := range l {
			to = append(to, fmt.Sprint(x))
		}
	}
	subject, _ := c.obj("content")["subject"].(string)
	c.tracef("  email from %s to %s %q: not sent (drydock never reaches the network)", from, strings.Join(to, ", "), subject)
	return nil, nil
}

// doPromCheck needs Prometheus' answer to go on.
func doPromCheck(c *call) (map[string]any, error) {
	return nil, c.errf("metrics.promCheck queries Prometheus at %s, which drydock does not reach (it never uses the network)", c.str("metricEndpoint"))
}
