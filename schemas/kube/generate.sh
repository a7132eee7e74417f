#!/usr/bin/env bash
# Regenerates the embedded Kubernetes API schemas, one file per minor
# version, from the OpenAPI v3 documents the API server publishes
# (/openapi/v3/<group-version>) as sigs.k8s.io/kubectl-validate keeps them:
#   ./generate.sh <kubectl-validate git dir> <commit> <minor>...
# Each vMAJOR.MINOR.json.gz holds the version's component schemas (without
# descriptions; every group-version's copy of a shared definition is the
# same) and its creatable kinds: group/version/kind -> definition and scope,
# from the paths that POST them (subresources and lists left out).
set -euo pipefail
repo=$1 commit=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$repo" archive "$commit" pkg/openapiclient/builtins | tar -x -C "$tmp"
for minor in "$@"; do
  python3 - "$tmp/pkg/openapiclient/builtins/$minor" <<'PY' | gzip -9n > "v$minor.json.gz"
import glob, json, os, sys
root = sys.argv[1]
def strip(x, names=False):
    # names: x maps property names to schemas, where "description" is a
    # field (JSONSchemaProps', PriorityClass'), not documentation.
    if isinstance(x, dict):
        return {k: strip(v, not names and k in ("properties", "patternProperties")) for k, v in x.items() if names or k != "description"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
defs, kinds = {}, {}
for f in sorted(glob.glob(os.path.join(root, "**", "*.json"), recursive=True)):
    doc = json.load(open(f))
    schemas = doc.get("components", {}).get("schemas", {})
    for name, s in schemas.items():
        defs[name] = strip(s)
    for path, item in doc.get("paths", {}).items():
        op = item.get("post")
        if not op or "{name}" in path:  # a subresource (eviction, binding, ...)
            continue
        body = op.get("requestBody", {}).get("content", {})
        ref = next((c["schema"].get("$ref", "") for c in body.values() if "schema" in c), "")
        name = ref.rsplit("/", 1)[-1]
        if name not in schemas:
            continue
        # The path names the group and version the kind is served in.
        parts = path.strip("/").split("/")
        group, version = ("", parts[1]) if parts[0] == "api" else (parts[1], parts[2])
        gvks = [g for g in schemas[name].get("x-kubernetes-group-version-kind", []) if (g["group"], g["version"]) == (group, version)]
        if len(gvks) != 1:
            continue  # a review or options type served for another group
        key = "/".join([group, version, gvks[0]["kind"]])
        kinds[key] = {"definition": name, "namespaced": "{namespace}" in path}
json.dump({"kinds": kinds, "definitions": defs}, sys.stdout, sort_keys=True, separators=(",", ":"))
PY
done
