package workflow

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render/cueval"
)

// TestProducer names what rendered an object as the overlap warning does.
func TestProducer(t *testing.T) {
	tests := []struct {
		r    cueval.Resource
		want string
	}{
		{cueval.Resource{Component: "web"}, `component "web" workload`},
		{cueval.Resource{Component: "web", Trait: cueval.AuxiliaryWorkload, Output: "svc"}, `component "web" output "svc"`},
		{cueval.Resource{Component: "web", Trait: "gateway", Output: "ingress"}, `component "web" trait "gateway" output "ingress"`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, producerOf(&tt.r).String()); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
	}
}
