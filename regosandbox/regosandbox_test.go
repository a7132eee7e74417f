package regosandbox

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func TestExplain(t *testing.T) {
	for _, tc := range []struct {
		msg       string
		withClock bool
		want      string
	}{
		{"undefined function http.send", false, "built-in http.send is not available in drydock's sandbox: it reaches the network"},
		{"undefined function time.now_ns", false, "built-in time.now_ns is not available in drydock's sandbox: it reads the clock (hint)"},
		{"undefined function time.now_ns", true, "undefined function time.now_ns"},
		{"undefined function external_data", false, "whole message"},
		{"undefined function no.such", false, "undefined function no.such"},
		{"var x is unsafe", false, "var x is unsafe"},
	} {
		errs := ast.Errors{ast.NewError(ast.TypeErr, nil, "%s", tc.msg)}
		Explain(errs, tc.withClock, " (hint)", map[string]string{"external_data": "whole message"})
		if got := errs[0].Message; got != tc.want {
			t.Errorf("Explain(%q, withClock %v) = %q, want %q", tc.msg, tc.withClock, got, tc.want)
		}
	}
}
