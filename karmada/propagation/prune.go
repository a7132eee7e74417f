package propagation

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// Finish turns an overridden object into what Karmada writes into the
// member's Work: the irrelevant fields pruned as Karmada's
// RemoveIrrelevantFields prunes them (prune below), then the bookkeeping
// labels and annotations (keys whose prefix ends in karmada.io) removed,
// and those maps dropped when that leaves them empty (Karmada's own keys
// were there: its Work never has them empty). An error is a prune that
// fails in Karmada too: the Work is not created.
func Finish(obj *manifest.Object) error {
	if err := prune(obj.Data); err != nil {
		return err
	}
	md, ok := obj.Data["metadata"].(map[string]any)
	if !ok {
		return nil
	}
	for _, key := range []string{"labels", "annotations"} {
		raw, present := md[key]
		if !present {
			continue
		}
		// Karmada's Work creation adds its keys through unstructured's
		// GetLabels/GetAnnotations, which read anything but a map of
		// strings (an override may have put one there) as nothing: the
		// value is replaced by Karmada's keys alone, stripped here.
		m, ok := raw.(map[string]any)
		if !ok || !allStrings(m) {
			delete(md, key)
			continue
		}
		for k := range m {
			if isBookkeeping(k) {
				delete(m, k)
			}
		}
		if len(m) == 0 {
			delete(md, key)
		}
	}
	return nil
}

// prune is Karmada's prune.RemoveIrrelevantFields with the
// RemoveJobTTLSeconds hook, as ctrlutil.CreateOrUpdateWork calls it (ported
// by hand from pkg/resourceinterpreter/default/native/prune/prune.go at
// f8fdd02). Like Karmada it picks the kind's pruner by kind alone, whatever
// the group, and leaves the maps it deletes from in place, empty or not.
func prune(data map[string]any) error {
	if md, ok := data["metadata"].(map[string]any); ok {
		for _, k := range []string{"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation",
			"managedFields", "resourceVersion", "selfLink", "uid", "ownerReferences", "finalizers"} {
			delete(md, k)
		}
	}
	delete(data, "status")
	var err error
	switch manifest.String(data, "kind") {
	case "Deployment":
		removeAnnotations(data, "deployment.kubernetes.io/revision", "deployment.kubernetes.io/revision-history")
	case "Job":
		err = pruneJob(data)
	case "Secret":
		pruneSecret(data)
	case "ServiceAccount":
		pruneServiceAccount(data)
	case "Service":
		pruneService(data)
	case "PersistentVolumeClaim":
		if v, ok := manifest.Map(data, "metadata", "annotations")["volume.kubernetes.io/selected-node"].(string); ok && v != "" {
			removeAnnotations(data, "volume.kubernetes.io/selected-node")
		}
	}
	if err != nil {
		return err
	}
	if manifest.String(data, "kind") == "Job" { // RemoveJobTTLSeconds
		delete(manifest.Map(data, "spec"), "ttlSecondsAfterFinished")
	}
	return nil
}

// removeAnnotations deletes keys from metadata.annotations, leaving the
// map (unstructured.RemoveNestedField).
func removeAnnotations(data map[string]any, keys ...string) {
	a := manifest.Map(data, "metadata", "annotations")
	for _, k := range keys {
		delete(a, k)
	}
}

// pruneJob is removeJobIrrelevantField: unless spec.manualSelector is
// true, the controller-uid keys of spec.selector.matchLabels and the
// controller-uid and job-name labels of the pod template go; the maps stay.
func pruneJob(data map[string]any) error {
	switch manual := manifest.Map(data, "spec")["manualSelector"].(type) {
	case bool:
		if manual {
			return nil
		}
	case nil:
	default:
		// helper.ConvertToTypedObject fails on it.
		return fmt.Errorf("spec.manualSelector: cannot convert %v to a Job's bool", manual)
	}
	if err := deleteStringKeys(data, []string{"spec", "selector", "matchLabels"}, "controller-uid", "batch.kubernetes.io/controller-uid"); err != nil {
		return err
	}
	return deleteStringKeys(data, []string{"spec", "template", "metadata", "labels"},
		"controller-uid", "job-name", "batch.kubernetes.io/controller-uid", "batch.kubernetes.io/job-name")
}

// deleteStringKeys deletes keys from the map of strings at path, as
// unstructured.NestedStringMap then SetNestedStringMap do: nothing when
// the path is absent, an error (with unstructured's message) when a value
// on the way is not a map or the map holds something but strings.
func deleteStringKeys(data map[string]any, path []string, keys ...string) error {
	at := "." + strings.Join(path, ".")
	var v any = data
	for _, f := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s accessor error: %v is of the type %T, expected map[string]interface{}", at, v, v)
		}
		if v, ok = m[f]; !ok {
			return nil
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s accessor error: %v is of the type %T, expected map[string]interface{}", at, v, v)
	}
	for k, v := range m {
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s accessor error: contains non-string value in the map under key %q: %v is of the type %T, expected string", at, k, v, v)
		}
	}
	for _, k := range keys {
		delete(m, k)
	}
	return nil
}

// pruneSecret is removeSecretIrrelevantField: a service-account token
// loses its service-account.uid annotation, and data becomes null.
func pruneSecret(data map[string]any) {
	if manifest.String(data, "type") != "kubernetes.io/service-account-token" {
		return
	}
	removeAnnotations(data, "kubernetes.io/service-account.uid")
	data["data"] = nil
}

// pruneServiceAccount is removeServiceAccountIrrelevantField: secrets
// named <name>-token-* go. Karmada's loop does not step back after a
// removal, so of two such secrets in a row the second stays.
func pruneServiceAccount(data map[string]any) {
	secrets, ok := data["secrets"].([]any)
	if !ok || len(secrets) == 0 {
		return
	}
	prefix := manifest.String(data, "metadata", "name") + "-token-"
	for i := 0; i < len(secrets); i++ {
		s, _ := secrets[i].(map[string]any)
		name, _ := s["name"].(string)
		if strings.HasPrefix(name, prefix) {
			secrets = append(secrets[:i], secrets[i+1:]...)
		}
	}
	data["secrets"] = secrets
}

// pruneService is removeServiceIrrelevantField: an allocated clusterIP
// (a string other than None) goes, with clusterIPs.
func pruneService(data map[string]any) {
	spec := manifest.Map(data, "spec")
	if ip, ok := spec["clusterIP"].(string); ok && ip != "None" {
		delete(spec, "clusterIP")
		delete(spec, "clusterIPs")
	}
}

// isBookkeeping reports a label or annotation key Karmada owns.
func isBookkeeping(key string) bool {
	prefix, _, found := strings.Cut(key, "/")
	return found && strings.HasSuffix(prefix, "karmada.io")
}
