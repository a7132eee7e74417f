package kvapi_test

import (
	"testing"

	"github.com/mitchellh/hashstructure/v2"

	"github.com/drydock-dev/drydock/render/kvapi"
)

// RawExtension is kvapi's without its Hash method: what hashstructure
// walks by reflection (the type name is part of the hash).
type RawExtension struct {
	Raw    []byte
	Object any
}

// TestRawExtensionHash: RawExtension.Hash is the value hashstructure's
// reflective walk gives the same struct, alone, behind a pointer, nil,
// and inside a struct and a slice.
func TestRawExtensionHash(t *testing.T) {
	raws := [][]byte{nil, {}, []byte("null"), []byte(`{"image":"nginx","ports":[{"port":80,"expose":true}]}`), {0, 255, 1, 128}}
	for _, raw := range raws {
		want, err := hashstructure.Hash(RawExtension{Raw: raw}, hashstructure.FormatV2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]any{"value": kvapi.RawExtension{Raw: raw}, "pointer": &kvapi.RawExtension{Raw: raw}} {
			got, err := hashstructure.Hash(v, hashstructure.FormatV2, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%q %s: hash %x, want %x", raw, name, got, want)
			}
		}
		// Anonymous structs: both have the empty type name.
		want, _ = hashstructure.Hash(struct {
			Name  string
			Props *RawExtension
			List  []RawExtension
		}{"n", &RawExtension{Raw: raw}, []RawExtension{{Raw: raw}, {}}}, hashstructure.FormatV2, nil)
		got, _ := hashstructure.Hash(struct {
			Name  string
			Props *kvapi.RawExtension
			List  []kvapi.RawExtension
		}{"n", &kvapi.RawExtension{Raw: raw}, []kvapi.RawExtension{{Raw: raw}, {}}}, hashstructure.FormatV2, nil)
		if got != want {
			t.Errorf("%q in a struct: hash %x, want %x", raw, got, want)
		}
	}
	if _, err := (kvapi.RawExtension{Object: 1}).Hash(); err == nil {
		t.Error("a set Object hashed")
	}
}

// BenchmarkRawExtensionHash hashes the CLI benchmarks' component
// properties as hashstructure walks them (reflective) and through
// RawExtension.Hash (method).
func BenchmarkRawExtensionHash(b *testing.B) {
	raw := []byte(`{"env":[{"name":"INDEX","value":"7"}],"image":"registry.example.com/web:7","ports":[{"expose":true,"port":8080}]}`)
	for name, v := range map[string]any{"reflective": RawExtension{Raw: raw}, "method": kvapi.RawExtension{Raw: raw}} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := hashstructure.Hash(v, hashstructure.FormatV2, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
