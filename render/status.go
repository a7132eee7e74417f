package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
)

// StatusSpec is a component or trait definition's spec.status: CUE that
// KubeVela's controller evaluates after dispatch against the objects as
// the cluster holds them (pkg/cue/definition/health).
type StatusSpec struct {
	// HealthPolicy sets isHealth; none means healthy.
	HealthPolicy string
	// CustomStatus sets message.
	CustomStatus string
	// Details sets fields shown as the status's details.
	Details string
}

// Status is what the controller makes of a component or trait.
type Status struct {
	Healthy bool
	Message string
	// Details are status.details' fields: strings as they are, other
	// values as CUE ("_|_" for one not concrete).
	Details map[string]string
	// HealthErr and MessageErr are why the health or the message could
	// not be evaluated (KubeVela logs them; the component is then
	// unhealthy, its message empty).
	HealthErr, MessageErr error
}

// EvalStatus evaluates s as KubeVela's CheckHealth and getStatusMessage
// do: each CUE text unified with `context: <ctx as JSON>` and
// `parameter: <parameter as JSON>` ({} when none); isHealth must be a
// bool, message a string. ctx holds what the controller's template context
// holds: output (the workload as the cluster has it), outputs (the other
// objects by name), and the component's context fields.
func EvalStatus(s StatusSpec, ctx map[string]any, parameter map[string]any) Status {
	st := Status{Healthy: true}
	cctx := cuecontext.New()
	status := map[string]any{}
	ctx["status"] = status
	if s.Details != "" {
		var details map[string]any
		st.Details, details = statusDetails(cctx, s.Details, ctx, parameter)
		status["details"] = details
	}
	runtime, err := runtimeContext(ctx, parameter)
	if err != nil {
		return Status{HealthErr: err, MessageErr: err}
	}
	if s.HealthPolicy != "" {
		v := cctx.CompileString(s.HealthPolicy + "\n" + runtime)
		if err := v.Err(); err != nil {
			st.Healthy, st.HealthErr = false, fmt.Errorf("compile health template: %w", err)
		} else if st.Healthy, err = v.LookupPath(cue.ParsePath("isHealth")).Bool(); err != nil {
			st.Healthy, st.HealthErr = false, fmt.Errorf("evaluate health status: %w", err)
		}
	}
	if s.CustomStatus != "" {
		status["healthy"] = st.Healthy
		if runtime, err = runtimeContext(ctx, parameter); err != nil {
			st.MessageErr = err
			return st
		}
		v := cctx.CompileString(s.CustomStatus + "\n" + runtime)
		if err := v.Err(); err != nil {
			st.MessageErr = fmt.Errorf("compile status template: %w", err)
		} else if st.Message, err = v.LookupPath(cue.ParsePath("message")).String(); err != nil {
			st.MessageErr = fmt.Errorf("evaluate customStatus.message: %w", err)
		}
	}
	return st
}

func runtimeContext(ctx, parameter map[string]any) (string, error) {
	c, err := json.Marshal(ctx)
	if err != nil {
		return "", err
	}
	p := []byte("{}")
	if parameter != nil {
		if p, err = json.Marshal(parameter); err != nil {
			return "", err
		}
	}
	return "context: " + string(c) + "\nparameter: " + string(p) + "\n", nil
}

// statusDetails evaluates status.details as KubeVela's getStatusMap does:
// every field of the CUE that is not context or parameter, shorter than
// 32 characters and not marked @local or @private, as a string (a
// $-field only reaches context.status.details); the values are also
// returned decoded, for context.status.details.
func statusDetails(cctx *cue.Context, src string, ctx, parameter map[string]any) (map[string]string, map[string]any) {
	out, values := map[string]string{}, map[string]any{}
	runtime, err := runtimeContext(ctx, parameter)
	if err != nil {
		return out, values
	}
	v := cctx.CompileString(src + "\n" + runtime)
	if v.Err() != nil {
		return out, values
	}
	it, err := v.Fields()
	if err != nil {
		return out, values
	}
	for it.Next() {
		label := it.Selector().String()
		if len(label) >= 32 || label == "context" || label == "parameter" {
			continue
		}
		f := it.Value()
		excluded := false
		for _, a := range f.Attributes(cue.FieldAttr) {
			if a.Name() == "local" || a.Name() == "private" {
				excluded = true
			}
		}
		concrete := f.Validate(cue.Concrete(true)) == nil
		if concrete {
			var x any
			if f.Decode(&x) == nil {
				values[label] = x
			}
		}
		if strings.HasPrefix(label, "$") || excluded {
			continue
		}
		switch {
		case !concrete:
			out[label] = cue.BottomKind.String()
		case f.IncompleteKind() == cue.StringKind:
			out[label], _ = f.String()
		default:
			b, err := format.Node(f.Syntax(cue.Final()))
			if err == nil {
				out[label] = string(b)
			}
		}
	}
	return out, values
}
