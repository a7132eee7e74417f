package schemas

import (
	"encoding/json"
	"fmt"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/drydock-dev/drydock/manifest"
)

// CRDs are the schemas of custom resources, from their
// CustomResourceDefinitions (apiextensions.k8s.io/v1). Once filled (Add),
// a set can be used by concurrent Validate calls.
type CRDs struct {
	byKind map[string]*crdVersion // group/version/Kind
}

type crdVersion struct {
	crd    *manifest.Object
	schema *apiextensionsv1.JSONSchemaProps
	once   sync.Once
	v      *objectValidator
}

// NewCRDs returns an empty set.
func NewCRDs() *CRDs { return &CRDs{byKind: map[string]*crdVersion{}} }

// IsCRD reports whether o is a CustomResourceDefinition.
func IsCRD(o *manifest.Object) bool { return IsCRDKind(o.APIVersion(), o.Kind()) }

// IsCRDKind is IsCRD of an object of apiVersion and kind.
func IsCRDKind(apiVersion, kind string) bool {
	return kind == "CustomResourceDefinition" && apiVersion == "apiextensions.k8s.io/v1"
}

// Add takes the served versions of a CustomResourceDefinition. A later
// definition of the same kind and version replaces an earlier one.
func (c *CRDs) Add(o *manifest.Object) error {
	raw, err := json.Marshal(o.Data["spec"])
	if err != nil {
		return manifest.At(o.Pos, "%s: %v", o.Key(), err)
	}
	var spec apiextensionsv1.CustomResourceDefinitionSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return manifest.At(o.Pos, "CustomResourceDefinition %s: spec: %v", o.Name(), err)
	}
	for _, v := range spec.Versions {
		if !v.Served {
			continue
		}
		cv := &crdVersion{crd: o}
		if v.Schema != nil {
			cv.schema = v.Schema.OpenAPIV3Schema
		}
		c.byKind[gvkKey(spec.Group+"/"+v.Name, spec.Names.Kind)] = cv
	}
	return nil
}

// Validate checks a custom resource as the API server would with its
// CustomResourceDefinition's structural schema, its CEL rules included,
// on the object with the schema's defaults applied first (o is not
// changed). known is false when no definition serves o's kind and
// version.
func (c *CRDs) Validate(o *manifest.Object) (findings []Finding, known bool) {
	if c == nil {
		return nil, false
	}
	cv, ok := c.byKind[gvkKey(o.APIVersion(), o.Kind())]
	if !ok {
		return nil, false
	}
	cv.once.Do(func() {
		if cv.schema == nil {
			cv.v = &objectValidator{err: fmt.Errorf("CustomResourceDefinition %s (%s) gives no schema", cv.crd.Name(), cv.crd.Pos)}
			return
		}
		cv.v = newObjectValidatorProps(cv.schema, false)
	})
	return cv.v.validate(o.Data), true
}
