#!/usr/bin/env bash
# Regenerates the embedded Karmada policy schemas from Karmada's CRDs:
#   ./generate.sh <karmada git dir> <commit>
# It keeps only what validation reads (types, formats, enums, bounds,
# required fields, nesting) and drops descriptions.
set -euo pipefail
repo=$1 commit=$2
# The cluster-scoped kinds share their namespaced twins' schemas.
for kind in propagationpolicies overridepolicies; do
  git -C "$repo" show "$commit:charts/karmada/_crds/bases/policy/policy.karmada.io_$kind.yaml" |
    python3 -c '
import json, sys, yaml
keep = {"type", "format", "enum", "required", "properties", "items", "additionalProperties",
        "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern",
        "nullable", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields"}
def walk(s):
    out = {k: v for k, v in s.items() if k in keep}
    if "properties" in out:
        out["properties"] = {k: walk(v) for k, v in out["properties"].items()}
    for k in ("items", "additionalProperties"):
        if isinstance(out.get(k), dict):
            out[k] = walk(out[k])
    return out
crd = yaml.safe_load(sys.stdin)
schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
json.dump(walk(schema), sys.stdout, sort_keys=True, separators=(",", ":"))
' > "$kind.json"
done
