package golden

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeTB records what Check reports.
type fakeTB struct {
	helper bool
	calls  []string // "Errorf: msg", "Logf: msg", "Fatalf: msg"
}

func (f *fakeTB) Helper()                        { f.helper = true }
func (f *fakeTB) Errorf(format string, a ...any) { f.record("Errorf", format, a) }
func (f *fakeTB) Logf(format string, a ...any)   { f.record("Logf", format, a) }
func (f *fakeTB) Fatalf(format string, a ...any) { f.record("Fatalf", format, a) }

func (f *fakeTB) record(kind, format string, a []any) {
	f.calls = append(f.calls, kind+": "+fmt.Sprintf(format, a...))
}

// kinds is the kind of each recorded call.
func (f *fakeTB) kinds() []string {
	var out []string
	for _, c := range f.calls {
		out = append(out, c[:strings.Index(c, ":")])
	}
	return out
}

// setUpdate sets the -update flag for one test.
func setUpdate(t *testing.T, on bool) {
	f := updateFlag()
	was := f.Value.String()
	if err := f.Value.Set(fmt.Sprint(on)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(was) })
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		update    bool
		golden    map[string]string
		got       map[string]string
		wantCalls []string
		wantIn    []string // substrings of the first call
		wantFiles map[string]string
	}{
		{
			name:      "match",
			golden:    map[string]string{cmPath: cmBlue},
			got:       map[string]string{cmPath: cmBlue},
			wantFiles: map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmBlue},
		},
		{
			name:      "drift",
			golden:    owning(map[string]string{cmPath: cmBlue, "c1/old.yaml": "x\n"}, cmPath, "c1/old.yaml"),
			got:       map[string]string{cmPath: cmGreen},
			wantCalls: []string{"Errorf"},
			wantIn:    []string{"differs from the rendered tree", "-update", "golden: 1 changed, 0 added, 1 removed", cmDiff},
			wantFiles: owning(map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmBlue, "c1/old.yaml": "x\n"}, cmPath, "c1/old.yaml"),
		},
		{
			name:      "invalid path",
			got:       map[string]string{"../x.yaml": ns},
			wantCalls: []string{"Fatalf"},
			wantIn:    []string{"invalid path"},
			wantFiles: map[string]string{},
		},
		{
			name:      "update with drift",
			update:    true,
			golden:    owning(map[string]string{cmPath: cmBlue, "c1/old/x.yaml": "x\n"}, cmPath, "c1/old/x.yaml"),
			got:       map[string]string{cmPath: cmGreen},
			wantCalls: []string{"Logf"},
			wantIn:    []string{"golden: updated", "1 pruned", cmDiff},
			wantFiles: owning(map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmGreen}, cmPath),
		},
		{
			name:      "update without drift",
			update:    true,
			golden:    owning(map[string]string{cmPath: cmBlue}, cmPath),
			got:       map[string]string{cmPath: cmBlue},
			wantFiles: owning(map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmBlue}, cmPath),
		},
		{
			name:      "update records ownership",
			update:    true,
			got:       map[string]string{cmPath: cmBlue},
			wantCalls: []string{"Logf"},
			wantIn:    []string{"added    " + cmPath},
			wantFiles: owning(map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmBlue}, cmPath),
		},
		{
			name:      "update does not rewrite a file drydock did not write",
			update:    true,
			golden:    map[string]string{cmPath: cmBlue},
			got:       map[string]string{cmPath: cmGreen},
			wantCalls: []string{"Fatalf"},
			wantIn:    []string{"not written by drydock", "adopt"},
			wantFiles: map[string]string{"c1/": "", "c1/ns/": "", cmPath: cmBlue},
		},
		{
			name:      "update with an invalid path",
			update:    true,
			got:       map[string]string{"/abs.yaml": ns},
			wantCalls: []string{"Fatalf"},
			wantIn:    []string{"invalid path"},
			wantFiles: map[string]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setUpdate(t, tt.update)
			dir := t.TempDir()
			writeDir(t, dir, tt.golden)
			tb := &fakeTB{}
			Check(tb, dir, treeOf(tt.got))
			if !tb.helper {
				t.Error("Check did not call Helper")
			}
			if diff := cmp.Diff(tt.wantCalls, tb.kinds()); diff != "" {
				t.Fatalf("calls (-want +got):\n%s\n%q", diff, tb.calls)
			}
			for _, s := range tt.wantIn {
				if !strings.Contains(tb.calls[0], s) {
					t.Errorf("message lacks %q:\n%s", s, tb.calls[0])
				}
			}
			if diff := cmp.Diff(tt.wantFiles, readAll(t, dir)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUpdateFlagShared checks that Check uses an -update flag that already
// exists instead of defining its own (flag.Bool would panic on a second
// definition).
func TestUpdateFlagShared(t *testing.T) {
	if updateFlag() != flag.Lookup("update") {
		t.Error("Check's -update flag is not the one on flag.CommandLine")
	}
}

type stringFlag string

func (s *stringFlag) String() string     { return string(*s) }
func (s *stringFlag) Set(v string) error { *s = stringFlag(v); return nil }

func TestIsTrue(t *testing.T) {
	b := func(v bool) flag.Value {
		fs := flag.NewFlagSet("", flag.ContinueOnError)
		fs.Bool("update", v, "")
		return fs.Lookup("update").Value
	}
	s := func(v string) flag.Value { f := stringFlag(v); return &f }
	tests := []struct {
		name string
		v    flag.Value
		want bool
	}{
		{"bool true", b(true), true},
		{"bool false", b(false), false},
		{"string true", s("true"), true},
		{"string 1", s("1"), true},
		{"string other", s("golden"), false},
		{"string empty", s(""), false},
	}
	for _, tt := range tests {
		if got := isTrue(tt.v); got != tt.want {
			t.Errorf("%s: isTrue = %v, want %v", tt.name, got, tt.want)
		}
	}
}
