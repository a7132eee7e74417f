package cueval

import (
	"encoding/json"
	"errors"
	"fmt"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/render"
)

// Components whose ComponentDefinition has a terraform schematic: KubeVela
// renders no template for them but a terraform-controller Configuration
// (kubevela 5a44b5f pkg/appfile/appfile.go,
// generateTerraformConfigurationWorkload), which its controller dispatches
// and terraform-controller turns into cloud resources.

// The keys KubeVela takes out of the properties before they become the
// Configuration's spec.variable (pkg/appfile/appfile.go).
var terraformNonVariables = []string{"writeConnectionSecretToRef", "customRegion", "providerRef", "forceDelete", "gitCredentialsSecretReference"}

// evaluateTerraform renders a terraform-schematic component: the
// Configuration becomes `output`.
func (e *Engine) evaluateTerraform(d *render.Definition, comp *render.Component, ns string, context map[string]any) (cue.Value, error) {
	obj, err := terraformConfiguration(d.Terraform, comp.Name, ns, comp.Properties)
	if err != nil {
		return cue.Value{}, fmt.Errorf("failed to generate Terraform Configuration workload for workload %s: %w", comp.Name, err)
	}
	e.uses++
	v := e.ctx.Encode(map[string]any{"output": obj, "context": context})
	return v, v.Err()
}

// terraformConfiguration is generateTerraformConfigurationWorkload: the
// properties decode into the Configuration's spec (terraform-controller
// api/v1beta2 ConfigurationSpec), the schematic fills the references the
// properties leave out and the module, and the properties less
// terraformNonVariables are spec.variable. The object is the
// Configuration's JSON, less what the API server does not keep on create
// (metadata.creationTimestamp: null; status, a subresource).
func terraformConfiguration(tf *render.TerraformSchematic, name, ns string, params map[string]any) (map[string]any, error) {
	if tf == nil || tf.Configuration == "" {
		return nil, errors.New("terraform configuration is not set")
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("failed to convert Terraform component properties: %w", err)
	}
	var spec configurationSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("failed to convert Terraform component properties: %w", specError(err))
	}
	fillTerraformSpec(&spec, tf, ns)
	variables := map[string]any{}
	if err := json.Unmarshal(raw, &variables); err != nil {
		return nil, fmt.Errorf("failed to convert Terraform component properties: %w", err)
	}
	for _, k := range terraformNonVariables {
		delete(variables, k)
	}
	if spec.Variable, err = json.Marshal(variables); err != nil {
		return nil, fmt.Errorf("failed to convert Terraform component properties: %w", err)
	}
	meta := map[string]any{"name": name, "namespace": ns}
	if len(tf.Annotations) > 0 {
		meta["annotations"] = tf.Annotations
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "terraform.core.oam.dev/v1beta2", "kind": "Configuration", "metadata": meta, "spec": spec})
	if err != nil {
		return nil, err
	}
	return decodeJSONObject(data)
}

// fillTerraformSpec sets what the schematic gives a spec.
func fillTerraformSpec(spec *configurationSpec, tf *render.TerraformSchematic, ns string) {
	if spec.WriteConnectionSecretToRef == nil && tf.WriteConnectionSecretToRef != nil {
		spec.WriteConnectionSecretToRef = &secretRef{Name: str(tf.WriteConnectionSecretToRef["name"]), Namespace: str(tf.WriteConnectionSecretToRef["namespace"])}
	}
	if spec.WriteConnectionSecretToRef != nil && spec.WriteConnectionSecretToRef.Namespace == "" {
		spec.WriteConnectionSecretToRef.Namespace = ns
	}
	if spec.ProviderRef == nil && tf.ProviderRef != nil {
		spec.ProviderRef = &secretRef{Name: str(tf.ProviderRef["name"]), Namespace: str(tf.ProviderRef["namespace"])}
	}
	if spec.GitCredentialsSecretReference == nil && tf.GitCredentialsSecretRef != nil {
		spec.GitCredentialsSecretReference = &coreSecretRef{Name: str(tf.GitCredentialsSecretRef["name"]), Namespace: str(tf.GitCredentialsSecretRef["namespace"])}
	}
	switch tf.Type {
	case "hcl":
		spec.HCL = tf.Configuration
	case "remote":
		spec.Remote, spec.Path = tf.Configuration, tf.Path
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// specError names the spec type in a decoding error as KubeVela's does
// (terraform-controller's ConfigurationSpec).
func specError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Struct == "configurationSpec" {
		c := *te
		c.Struct = "ConfigurationSpec"
		return &c
	}
	return err
}

// configurationSpec is terraform-controller's api/v1beta2
// ConfigurationSpec (commit c0557127de25, the one kubevela 5a44b5f pins):
// its fields and JSON names decide which properties KubeVela keeps and
// how they are written back.
type configurationSpec struct {
	HCL                                          string          `json:"hcl,omitempty"`
	Remote                                       string          `json:"remote,omitempty"`
	GitRef                                       gitRef          `json:"gitRef,omitempty"`
	Variable                                     json.RawMessage `json:"variable,omitempty"`
	Backend                                      *backend        `json:"backend,omitempty"`
	Path                                         string          `json:"path,omitempty"`
	WriteConnectionSecretToRef                   *secretRef      `json:"writeConnectionSecretToRef,omitempty"`
	ProviderRef                                  *secretRef      `json:"providerRef,omitempty"`
	JobEnv                                       json.RawMessage `json:"JobEnv,omitempty"`
	InlineCredentials                            bool            `json:"inlineCredentials,omitempty"`
	DeleteResource                               *bool           `json:"deleteResource,omitempty"`
	Region                                       string          `json:"customRegion,omitempty"`
	ForceDelete                                  *bool           `json:"forceDelete,omitempty"`
	GitCredentialsSecretReference                *coreSecretRef  `json:"gitCredentialsSecretReference,omitempty"`
	TerraformCredentialsSecretReference          *coreSecretRef  `json:"terraformCredentialsSecretReference,omitempty"`
	TerraformRCConfigMapReference                *coreSecretRef  `json:"terraformRCConfigMapReference,omitempty"`
	TerraformCredentialsHelperConfigMapReference *coreSecretRef  `json:"terraformCredentialsHelperConfigMapReference,omitempty"`
}

// gitRef is api/types GitRef.
type gitRef struct {
	Branch string `json:"branch,omitempty"`
	Tag    string `json:"tag,omitempty"`
	Commit string `json:"commit,omitempty"`
}

// secretRef is crossplane-runtime's SecretReference (and Reference, of
// the same shape).
type secretRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// coreSecretRef is core/v1 SecretReference.
type coreSecretRef struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}

// backend is v1beta2 Backend.
type backend struct {
	SecretSuffix    string `json:"secretSuffix,omitempty"`
	InClusterConfig bool   `json:"inClusterConfig,omitempty"`
	Inline          string `json:"inline,omitempty"`
	BackendType     string `json:"backendType,omitempty"`
	Kubernetes      *struct {
		SecretSuffix string  `json:"secret_suffix"`
		Namespace    *string `json:"namespace,omitempty"`
	} `json:"kubernetes,omitempty"`
	S3 *struct {
		Region *string `json:"region,omitempty"`
		Bucket string  `json:"bucket"`
		Key    string  `json:"key"`
	} `json:"s3,omitempty"`
}
