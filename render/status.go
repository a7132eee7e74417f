package render

import (
	"encoding/json"
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
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
	runtime, err := runtimeContext(ctx, parameter)
	if err != nil {
		return Status{HealthErr: err, MessageErr: err}
	}
	if s.HealthPolicy != "" {
		v := cuecontext.New().CompileString(s.HealthPolicy + "\n" + runtime)
		if err := v.Err(); err != nil {
			st.Healthy, st.HealthErr = false, fmt.Errorf("compile health template: %w", err)
		} else if st.Healthy, err = v.LookupPath(cue.ParsePath("isHealth")).Bool(); err != nil {
			st.Healthy, st.HealthErr = false, fmt.Errorf("evaluate health status: %w", err)
		}
	}
	if s.CustomStatus != "" {
		ctx["status"] = map[string]any{"healthy": st.Healthy}
		if runtime, err = runtimeContext(ctx, parameter); err != nil {
			st.MessageErr = err
			return st
		}
		v := cuecontext.New().CompileString(s.CustomStatus + "\n" + runtime)
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
