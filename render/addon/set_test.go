package addon

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSet(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want map[string]any
	}{
		{"bool any case", []string{"a=true", "b=FALSE"}, map[string]any{"a": true, "b": false}},
		{"null", []string{"a=null"}, map[string]any{"a": nil}},
		{"integers", []string{"a=0", "b=-5", "c=+5", "d=42"}, map[string]any{"a": int64(0), "b": int64(-5), "c": int64(5), "d": int64(42)}},
		{"strings", []string{"a=0.5", "b=1e3", "c=007", "d=1Gi", "e="}, map[string]any{"a": "0.5", "b": "1e3", "c": "007", "d": "1Gi", "e": ""}},
		{"nested", []string{"values.replicaCount=2"}, map[string]any{"values": map[string]any{"replicaCount": int64(2)}}},
		{"escaped dot", []string{`a\.b\.c=true`}, map[string]any{"a.b.c": true}},
		{"list", []string{"clusters={local,c1}"}, map[string]any{"clusters": []any{"local", "c1"}}},
		{"typed list", []string{"a={1,x,true}"}, map[string]any{"a": []any{int64(1), "x", true}}},
		{"index", []string{"a[1]=x"}, map[string]any{"a": []any{nil, "x"}}},
		{"index map", []string{"a[0].b=1"}, map[string]any{"a": []any{map[string]any{"b": int64(1)}}}},
		{"two keys", []string{"a=1,b=2"}, map[string]any{"a": int64(1), "b": int64(2)}},
		{"later wins", []string{"a=1", "a=2"}, map[string]any{"a": int64(2)}},
		{"merge maps", []string{"a.b=1", "a.c=2"}, map[string]any{"a": map[string]any{"b": int64(1), "c": int64(2)}}},
		{"none", nil, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSet(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSet(%q) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

// TestParseSetHelm runs the cases of Helm's strvals TestParseSet and
// TestParseInto (pkg/strvals parser_test.go), which `vela addon enable`
// parses its arguments with, list items and nested lists included; a
// case of several arguments is ParseInto applied in turn.
func TestParseSetHelm(t *testing.T) {
	tests := []struct {
		args []string
		want map[string]any
	}{
		{[]string{"name1=null,f=false,t=true"}, map[string]any{"name1": nil, "f": false, "t": true}},
		{[]string{"name1=value1,name2=value2,"}, map[string]any{"name1": "value1", "name2": "value2"}},
		{[]string{"name1=,name2=value2"}, map[string]any{"name1": "", "name2": "value2"}},
		{[]string{"leading_zeros=00009"}, map[string]any{"leading_zeros": "00009"}},
		{[]string{"long_int=1234567890"}, map[string]any{"long_int": int64(1234567890)}},
		{[]string{`name1=one\,two,name2=three\,four`}, map[string]any{"name1": "one,two", "name2": "three,four"}},
		{[]string{`name1=one\=two,name2=three\=four`}, map[string]any{"name1": "one=two", "name2": "three=four"}},
		{[]string{"name1=one two three,name2=three two one"}, map[string]any{"name1": "one two three", "name2": "three two one"}},
		{[]string{"outer.middle.inner=value"}, map[string]any{"outer": map[string]any{"middle": map[string]any{"inner": "value"}}}},
		{[]string{"outer.inner1=value,outer.middle.inner=value"}, map[string]any{"outer": map[string]any{"inner1": "value", "middle": map[string]any{"inner": "value"}}}},
		{[]string{"name1.name2="}, map[string]any{"name1": map[string]any{"name2": ""}}},
		{[]string{"name1={value1,value2},name2={value1,value2}"}, map[string]any{"name1": []any{"value1", "value2"}, "name2": []any{"value1", "value2"}}},
		{[]string{"name1={1021,902}"}, map[string]any{"name1": []any{int64(1021), int64(902)}}},
		{[]string{"name1.name2={value1,value2}"}, map[string]any{"name1": map[string]any{"name2": []any{"value1", "value2"}}}},
		{[]string{"list[0]=foo"}, map[string]any{"list": []any{"foo"}}},
		{[]string{"list[0].foo=bar,list[0].hello=world"}, map[string]any{"list": []any{map[string]any{"foo": "bar", "hello": "world"}}}},
		{[]string{"list[0]=foo,list[1]=bar,"}, map[string]any{"list": []any{"foo", "bar"}}},
		{[]string{"list[0]=foo,list[3]=bar"}, map[string]any{"list": []any{"foo", nil, nil, "bar"}}},
		{[]string{"list[1]={a,b}"}, map[string]any{"list": []any{nil, []any{"a", "b"}}}},
		{[]string{"list[0]=true,list[1]=7"}, map[string]any{"list": []any{true, int64(7)}}},
		{[]string{"noval[0]"}, map[string]any{"noval": []any{}}},
		{[]string{"noval[0]="}, map[string]any{"noval": []any{""}}},
		{[]string{"nested[0][0]=1"}, map[string]any{"nested": []any{[]any{int64(1)}}}},
		{[]string{"nested[1][1]=1"}, map[string]any{"nested": []any{nil, []any{nil, int64(1)}}}},
		{[]string{"name1.name2[0].foo=bar,name1.name2[1].foo=bar"}, map[string]any{"name1": map[string]any{"name2": []any{map[string]any{"foo": "bar"}, map[string]any{"foo": "bar"}}}}},
		{[]string{"name1.name2[1].foo=bar,name1.name2[0].foo=bar"}, map[string]any{"name1": map[string]any{"name2": []any{map[string]any{"foo": "bar"}, map[string]any{"foo": "bar"}}}}},
		{[]string{"name1.name2[1].foo=bar"}, map[string]any{"name1": map[string]any{"name2": []any{nil, map[string]any{"foo": "bar"}}}}},
		{[]string{"listOuter[0][0].type=listValue", "listOuter[0][0].status=alive"},
			map[string]any{"listOuter": []any{[]any{map[string]any{"type": "listValue", "status": "alive"}}}}},
		{[]string{"listOuter[0][0].type=listValue", "listOuter[1][0].status=alive"},
			map[string]any{"listOuter": []any{[]any{map[string]any{"type": "listValue"}}, []any{map[string]any{"status": "alive"}}}}},
		{[]string{"listOuter[0][0][0].exited=old", "listOuter[0][1][0].type=listValue", "listOuter[0][0][1].status=alive"},
			map[string]any{"listOuter": []any{[]any{
				[]any{map[string]any{"exited": "old"}, map[string]any{"status": "alive"}},
				[]any{map[string]any{"type": "listValue"}},
			}}}},
	}
	for _, tt := range tests {
		got, err := ParseSet(tt.args)
		if err != nil {
			t.Errorf("ParseSet(%q) = %v", tt.args, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseSet(%q) (-want +got):\n%s", tt.args, diff)
		}
	}
}

func TestParseSetErrors(t *testing.T) {
	tests := []struct {
		name string
		arg  string
	}{
		{"no value", "a"},
		{"trailing comma", "a,"},
		{"open list", "a={x"},
		{"bad index", "a[x]=1"},
		{"negative index", "a[-1]=1"},
		{"huge index", "a[70000]=1"},
		{"map over value", "a=1,a.b=2"},
		// Helm's strvals TestParseSet refusals
		{"empty pairs", "name1=value1,,,,name2=value2,"},
		{"key without value before a pair", "name1,name2="},
		{"key without value, then escape at the end", "name1,name2=value2\\"},
		{"nested key without value", "name1.name2"},
		{"nested keys without values", "name1.name2,name1.name3"},
		{"empty nested key", "name1.=name2"},
		{"empty nested key then comma", "name1.,name2"},
		{"unterminated list of numbers", "name1={1021,902"},
		{"negative index later", "list[0].foo=bar,list[-30].hello=world"},
		{"negative value index", "list[0]=foo,list[-20]=bar"},
		{"data after an index", "illegal[0]name.foo=bar"},
		{"brackets", "]={}]."},
		{"index over a value", "a=1,a[0]=2"},
		{"nested index over a value", "a[0]=1,a[0][1]=2"},
		{"negative nested index", "a[0][-1]=2"},
		{"bad nested index", "a[0][x]=2"},
		{"huge list index", "a[0][70000]=2"},
		{"index without a closing bracket", "a[0"},
		{"deep nesting", strings.Repeat("a.", 31) + "b=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSet([]string{tt.arg})
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("ParseSet(%q) = %v, want an ErrInvalid", tt.arg, err)
			}
		})
	}
}

func FuzzParseSet(f *testing.F) {
	for _, s := range []string{"a=b", `a\.b=c`, "a={x,y}", "a[0].b=1", "a=1,b=2", "a.b.c=true", "a[1][2]=x", "a="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseSet([]string{s})
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseSet(%q) error %v does not wrap ErrInvalid", s, err)
		}
		if err == nil && got == nil {
			t.Errorf("ParseSet(%q) returned nil without error", s)
		}
		if cerr := (Params{Set: []string{s}, SetString: []string{s}}).Check(); (cerr == nil) != (err == nil) {
			t.Errorf("Params.Check(%q) = %v, but ParseSet = %v", s, cerr, err)
		}
	})
}

// FuzzParamsTyped renders an addon with a parameter of each kind, given
// one arbitrary --set argument: nothing may panic, and every refusal (a
// malformed argument, an unknown key, a value the parameter cannot take,
// a value CUE refuses) is ErrInvalid.
func FuzzParamsTyped(f *testing.F) {
	for _, s := range []string{"port=40", "replicas=x", "values.image.tag=1", "ports[0].port=8", "labels.a=1", "clusters={a,b}", "cpu=1e400", "replica=1", "extra.a[2].b=null"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := Render(addonFS(typedFiles), Options{Params: Params{Set: []string{s}}}); err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("--set %q: error %v is not ErrInvalid", s, err)
		}
	})
}
