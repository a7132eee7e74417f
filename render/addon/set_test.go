package addon

import (
	"errors"
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
	})
}
