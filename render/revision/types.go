package revision

import "github.com/drydock-dev/drydock/render/kvapi"

// The KubeVela API types the revision hashes walk, by the names this
// package's code uses (package kvapi holds them).
type (
	RawExtension               = kvapi.RawExtension
	ApplicationSpec            = kvapi.ApplicationSpec
	AppPolicy                  = kvapi.AppPolicy
	Workflow                   = kvapi.Workflow
	ApplicationComponent       = kvapi.ApplicationComponent
	ApplicationTrait           = kvapi.ApplicationTrait
	InputItem                  = kvapi.InputItem
	OutputItem                 = kvapi.OutputItem
	WorkflowStepMeta           = kvapi.WorkflowStepMeta
	WorkflowStepBase           = kvapi.WorkflowStepBase
	WorkflowStep               = kvapi.WorkflowStep
	WorkflowExecuteMode        = kvapi.WorkflowExecuteMode
	ComponentDefinitionSpec    = kvapi.ComponentDefinitionSpec
	WorkloadDefinitionSpec     = kvapi.WorkloadDefinitionSpec
	TraitDefinitionSpec        = kvapi.TraitDefinitionSpec
	PolicyDefinitionSpec       = kvapi.PolicyDefinitionSpec
	WorkflowStepDefinitionSpec = kvapi.WorkflowStepDefinitionSpec
	WorkloadTypeDescriptor     = kvapi.WorkloadTypeDescriptor
	WorkloadGVK                = kvapi.WorkloadGVK
	ChildResourceKind          = kvapi.ChildResourceKind
	Status                     = kvapi.Status
	Schematic                  = kvapi.Schematic
	CUE                        = kvapi.CUE
	Terraform                  = kvapi.Terraform
	SecretReference            = kvapi.SecretReference
	Reference                  = kvapi.Reference
	DefinitionReference        = kvapi.DefinitionReference
	ReferredObject             = kvapi.ReferredObject
)
