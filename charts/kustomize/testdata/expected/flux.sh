#!/bin/sh
# Expected outputs of Flux Kustomizations: produced offline by the flux
# CLI v2.9.5 (`flux build kustomization --dry-run`, kustomize-controller's
# generator and postBuild from fluxcd/pkg/kustomize v1.35.6), built with
# go1.26.8 from the module proxy's github.com/fluxcd/flux2/v2@v2.9.5 as
# the main module (go install refuses it for its replace directive):
#   cp -r $(go env GOMODCACHE)/github.com/fluxcd/flux2/v2@v2.9.5 src && chmod -R u+w src
#   mkdir -p src/cmd/flux/manifests && touch src/cmd/flux/manifests/placeholder.yaml
#   (cd src && GOTOOLCHAIN=local go build -o /work/tools/flux ./cmd/flux)
# Run from charts/kustomize/testdata: sh expected/flux.sh
set -eu
F=${FLUX:-/work/tools/flux}
export KUBECONFIG=/dev/null
$F build kustomization app -n flux-system --path flux/src/overlay --kustomization-file flux/overlay.ks.yaml --dry-run > expected/flux-overlay.yaml
$F build kustomization plain -n apps --path flux/src/plain --kustomization-file flux/plain.ks.yaml --dry-run > expected/flux-plain.yaml
$F build kustomization disabled -n flux-system --path flux/src/disabled --kustomization-file flux/disabled.ks.yaml --dry-run > expected/flux-disabled.yaml
$F build kustomization infra-configs -n flux-system --path upstream/flux2-kustomize-helm-example/infrastructure/configs --kustomization-file flux/infra-configs.ks.yaml --dry-run > expected/flux-example-infra-configs.yaml
U=upstream/kustomize
$F build kustomization ldap-staging -n flux-system --path $U/ldap/overlays/staging --kustomization-file flux/ldap-staging.ks.yaml --dry-run > expected/flux-ldap-staging.yaml
$F build kustomization wordpress -n flux-system --path $U/wordpress --kustomization-file flux/wordpress.ks.yaml --dry-run > expected/flux-wordpress.yaml
$F build kustomization multibases -n flux-system --path $U/multibases --kustomization-file flux/multibases.ks.yaml --dry-run > expected/flux-multibases.yaml
$F build kustomization typo -n flux-system --path flux/src/typo --kustomization-file flux/typo.ks.yaml --dry-run > expected/flux-typo.yaml
