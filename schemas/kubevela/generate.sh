#!/usr/bin/env bash
# Regenerates the embedded KubeVela CRD schemas that strict field
# validation reads (unknown fields), from KubeVela's chart CRDs and the
# embedded Kubernetes schemas (for ObjectMeta):
#   ./generate.sh <kubevela git dir> <commit> <../kube/vX.Y.json.gz>
# Each <plural>.json maps every served version to its openAPIV3Schema,
# reduced to what validation reads (descriptions dropped); objectmeta.json
# is ObjectMeta of that Kubernetes version with its references resolved,
# the API server's check of every object's metadata.
set -euo pipefail
repo=$1 commit=$2 kube=$3
keep='{"type", "format", "enum", "required", "properties", "items", "additionalProperties",
        "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern",
        "nullable", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource"}'
for kind in applications policies workflows componentdefinitions traitdefinitions policydefinitions \
  workflowstepdefinitions workloaddefinitions; do
  git -C "$repo" show "$commit:charts/vela-core/crds/core.oam.dev_$kind.yaml" |
    python3 -c '
import json, sys, yaml
keep = '"$keep"'
def walk(s):
    out = {k: v for k, v in s.items() if k in keep}
    if "properties" in out:
        out["properties"] = {k: walk(v) for k, v in out["properties"].items()}
    for k in ("items", "additionalProperties"):
        if isinstance(out.get(k), dict):
            out[k] = walk(out[k])
    return out
crd = yaml.safe_load(sys.stdin)
versions = {v["name"]: walk(v["schema"]["openAPIV3Schema"]) for v in crd["spec"]["versions"] if v.get("served")}
json.dump(versions, sys.stdout, sort_keys=True, separators=(",", ":"))
' > "$kind.json"
done
gzip -dc "$kube" | python3 -c '
import json, sys
keep = '"$keep"'
defs = json.load(sys.stdin)["definitions"]
def resolve(s):
    for sub in s.get("allOf", []):
        if "$ref" in sub:
            s = {**defs[sub["$ref"].rsplit("/", 1)[1]], **{k: v for k, v in s.items() if k != "allOf"}}
    if "$ref" in s:
        s = defs[s["$ref"].rsplit("/", 1)[1]]
    out = {k: v for k, v in s.items() if k in keep}
    if "properties" in out:
        out["properties"] = {k: resolve(v) for k, v in out["properties"].items()}
    for k in ("items", "additionalProperties"):
        if isinstance(out.get(k), dict):
            out[k] = resolve(out[k])
    if out.get("type") == "object" and "properties" not in out and "additionalProperties" not in out:
        out["x-kubernetes-preserve-unknown-fields"] = True  # FieldsV1: opaque JSON
    return out
json.dump(resolve(defs["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]), sys.stdout, sort_keys=True, separators=(",", ":"))
' > objectmeta.json
