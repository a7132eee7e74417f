package stepexec

import (
	"bytes"
	"encoding/json"
	"fmt"

	"cuelang.org/go/cue"
)

// call is one action: the field that carries #do and #provider.
type call struct {
	*run
	node cue.Value
	// path names the field, for the trace and errors.
	path string
	// params are the action's parameters: `$params`, or for a legacy
	// vela/op action the field's whole value.
	params map[string]any
	legacy bool
}

// action runs a call; its result is `$returns` (for a legacy action,
// what is filled into the field itself); nil fills nothing.
type action func(c *call) (map[string]any, error)

// call runs the action at node and returns what to fill at its path.
func (r *run) call(node cue.Value) (any, error) {
	do, _ := node.LookupPath(cue.ParsePath("#do")).String()
	prov, _ := node.LookupPath(cue.ParsePath("#provider")).String()
	c := &call{run: r, node: node, path: node.Path().String(), legacy: prov == legacyProvider}
	act, err := lookupAction(prov, do)
	if err != nil {
		return nil, c.errf("%w", err)
	}
	if c.legacy {
		// legacy actions read the field as it is (their results are
		// regular fields not yet filled)
		c.params, _ = concrete(node).(map[string]any)
	} else if ps := node.LookupPath(cue.ParsePath("$params")); !ps.Exists() {
		c.params = map[string]any{}
	} else if c.params, err = decodeNode(ps); err != nil {
		if do == "wait" {
			// a condition that reads what only a live cluster knows
			return nil, c.wait(false, "its condition is not known offline")
		}
		return nil, c.errf("%w", err)
	}
	if c.params == nil {
		c.params = map[string]any{}
	}
	ret, err := act(c)
	if ret == nil {
		return nil, err
	}
	if c.legacy {
		return ret, err
	}
	return map[string]any{"$returns": ret}, err
}

// decodeNode is the field's value in the JSON data model, as the
// providers' Call decodes it (MarshalJSON: every regular field concrete).
func decodeNode(v cue.Value) (map[string]any, error) {
	b, err := v.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var out map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, err
	}
	return numbers(out).(map[string]any), nil
}

// numbers turns json.Numbers into int64 or float64.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// errf is a provider's error, as cuex reports a failed function call.
func (c *call) errf(format string, args ...any) error {
	return fmt.Errorf("function call error for %s: %w", c.path, fmt.Errorf(format, args...))
}

// str reads a string parameter ("" when absent).
func (c *call) str(key string) string {
	s, _ := c.params[key].(string)
	return s
}

// obj reads an object parameter (nil when absent).
func (c *call) obj(key string) map[string]any {
	m, _ := c.params[key].(map[string]any)
	return m
}

// wait is a wait whose condition does not hold: a suspend of the step,
// taken as satisfied unless the run stops at suspends.
func (c *call) wait(cont bool, why string) error {
	if cont {
		return nil
	}
	if msg := c.str("message"); msg != "" {
		c.res.Message = msg
	}
	if c.opts.StopAtSuspend {
		c.tracef("  wait at %s: %s: stopping (--stop-at-suspend)", c.path, why)
		c.res.Suspended = true
		return errStop
	}
	c.tracef("  wait at %s: %s: taken as satisfied", c.path, why)
	return nil
}

func cuePath(s string) cue.Path { return cue.ParsePath(s) }
