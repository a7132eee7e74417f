package render

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

var errBoom = errors.New("boom")

// TestErrorFormat: DESIGN.md, "Errors about input name the place": a
// located Error gives the position, what was being rendered, the message;
// then the template's position and the deploy step with its override
// policies when known.
func TestErrorFormat(t *testing.T) {
	at := manifest.Pos{File: "app.yaml", Line: 14, Col: 11}
	tmpl := manifest.Pos{File: "defs/scaler.cue", Line: 3, Col: 2}
	tests := []struct {
		name string
		err  *Error
		// step and overrides are given to DeployContext ("": not called).
		step      string
		overrides []string
		want      string
	}{
		{"application", &Error{Pos: at, App: "a", Err: errBoom}, "", nil, `app.yaml:14:11: application "a": boom`},
		{"no position", &Error{App: "a", Err: errBoom}, "", nil, `application "a": boom`},
		{"component and trait", &Error{Pos: at, App: "a", Component: "api", Trait: "scaler", Err: errBoom}, "", nil,
			`app.yaml:14:11: application "a" component "api" trait "scaler": boom`},
		{"policy", &Error{Pos: at, App: "a", Policy: "p", Err: errBoom}, "", nil, `app.yaml:14:11: application "a": policy "p": boom`},
		{"template position", &Error{Pos: at, App: "a", Component: "api", Template: tmpl, Err: errBoom}, "", nil,
			`app.yaml:14:11: application "a" component "api": boom (template defs/scaler.cue:3:2)`},
		{"template position equal to the position", &Error{Pos: tmpl, App: "a", Template: tmpl, Err: errBoom}, "", nil,
			`defs/scaler.cue:3:2: application "a": boom`},
		{"deploy step", &Error{Pos: at, App: "a", Component: "api", Err: errBoom}, "deploy-eu", nil,
			`app.yaml:14:11: application "a" component "api": boom (deploy step "deploy-eu")`},
		{"deploy step and overrides", &Error{Pos: at, App: "a", Component: "api", Err: errBoom}, "deploy-eu", []string{"o1", "o2"},
			`app.yaml:14:11: application "a" component "api": boom (deploy step "deploy-eu", override policies o1, o2)`},
		{"template and deploy step", &Error{Pos: at, App: "a", Component: "api", Template: tmpl, Err: errBoom}, "deploy-eu", []string{"o1"},
			`app.yaml:14:11: application "a" component "api": boom (template defs/scaler.cue:3:2) (deploy step "deploy-eu", override policies o1)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			located := Locate(tt.err)
			if tt.step != "" {
				if !DeployContext(fmt.Errorf("wrapped: %w", located), tt.step, tt.overrides) {
					t.Fatal("DeployContext does not find the render error")
				}
				if !DeployContext(located, tt.step, tt.overrides) {
					t.Fatal("DeployContext does not find the render error again")
				}
			}
			if diff := cmp.Diff(tt.want, manifest.Format(located, nil)); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if !errors.Is(located, errBoom) {
				t.Errorf("the cause is not reachable")
			}
			if pos, _ := manifest.PosOf(located); pos != tt.err.Pos {
				t.Errorf("PosOf = %v, want %v", pos, tt.err.Pos)
			}
		})
	}
}

// cueErr is the error of compiling src.
func cueErr(t *testing.T, src string) error {
	t.Helper()
	err := cuecontext.New().CompileString(src, cue.Filename("t.cue")).Validate(cue.Concrete(true))
	if err == nil {
		t.Fatalf("%q compiles", src)
	}
	return err
}

// TestCUEMessage: a CUE error shows its distinct messages without
// positions, at most five and a count of the rest; other errors as they
// are.
func TestCUEMessage(t *testing.T) {
	var many []string
	for i := range 7 {
		many = append(many, fmt.Sprintf("f%d: %d + \"s\"", i, i))
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"not CUE", errBoom, "boom"},
		{"one", cueErr(t, `a: 1 + "s"`), `a: invalid operands 1 and "s" to '+' (type int and string)`},
		{"two", cueErr(t, "a: int & \"x\"\nb: string & 1"),
			`a: conflicting values int and "x" (mismatched types int and string); b: conflicting values string and 1 (mismatched types string and int)`},
		{"more than five", cueErr(t, strings.Join(many, "\n")),
			`f0: invalid operands 0 and "s" to '+' (type int and string); f1: invalid operands 1 and "s" to '+' (type int and string); ` +
				`f2: invalid operands 2 and "s" to '+' (type int and string); f3: invalid operands 3 and "s" to '+' (type int and string); ` +
				`f4: invalid operands 4 and "s" to '+' (type int and string); and 2 more errors`},
		{"six", cueErr(t, strings.Join(many[:6], "\n")),
			`f0: invalid operands 0 and "s" to '+' (type int and string); f1: invalid operands 1 and "s" to '+' (type int and string); ` +
				`f2: invalid operands 2 and "s" to '+' (type int and string); f3: invalid operands 3 and "s" to '+' (type int and string); ` +
				`f4: invalid operands 4 and "s" to '+' (type int and string); and 1 more error`},
		// The header of an empty disjunction goes: its parts follow.
		{"disjunction", cueErr(t, `a: (1 | 2) & 3`), `a: conflicting values 1 and 3; a: conflicting values 2 and 3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, CUEMessage(tt.err)); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPositionedCUE: a CUE error as file:line:col and CUEMessage.
func TestPositionedCUE(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"positioned", cueErr(t, "x: 1\na: 1 + \"s\""), `t.cue:2:4: a: invalid operands 1 and "s" to '+' (type int and string)`},
		{"not CUE", errBoom, "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, manifest.Format(PositionedCUE(tt.err), nil)); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCUEPositions: CUE reports a structural cycle without a position;
// CUEPositions places it at the field of its path in the value that
// failed (or the nearest enclosing field), and keeps the positions of an
// error that has them.
func TestCUEPositions(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"a field that is its own child", "x: 1\na: b: a\n", []string{"t.cue:2:4"}},
		{"nested", "a: {\n\tb: {\n\t\tc: a\n\t}\n}\n", []string{"t.cue:3:3"}},
		{"a definition", "#A: {b: #A}\nv: #A\n", []string{"t.cue:1:6"}},
		{"a list", "l: [l]\n", []string{"t.cue:1:5"}},
		{"a quoted label", "X=\"a-b\": c: X\n", []string{"t.cue:1:10"}},
		{"an error with positions keeps them", "a: 1\na: 2\n", []string{"t.cue:1:4", "t.cue:2:4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := cuecontext.New().CompileString(tt.src, cue.Filename("t.cue"))
			err := v.Err()
			if err == nil {
				err = v.Validate()
			}
			errs := cueerrors.Errors(err)
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			var got []string
			for _, p := range CUEPositions(v, errs[0]) {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("positions of %q (-want +got):\n%s", errs[0], diff)
			}
		})
	}
	if got := CUEPositions(cue.Value{}, cueerrors.Errors(cuecontext.New().CompileString("a: b: a").Validate())[0]); got != nil {
		t.Errorf("CUEPositions(zero Value) = %v, want nil", got)
	}
}

// TestDeployContextNone: an error that holds no render error is left as
// it is.
func TestDeployContextNone(t *testing.T) {
	plain := manifest.At(manifest.Pos{File: "a.yaml", Line: 1}, "bad")
	if DeployContext(errors.Join(errors.New("x"), plain), "s", nil) || len(plain.Related) != 0 {
		t.Error("DeployContext changed an error render did not locate")
	}
	located := Locate(&Error{App: "a", Err: errBoom})
	if !DeployContext(errors.Join(errors.New("x"), located), "s", nil) || manifest.Format(located, nil) != `application "a": boom (deploy step "s")` {
		t.Errorf("DeployContext in a joined error: %q", manifest.Format(located, nil))
	}
}
