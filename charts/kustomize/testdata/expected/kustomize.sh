#!/bin/sh
# Expected outputs of plain kustomizations: produced by the pinned
# kustomize (v5.8.2, api v0.21.2), run from charts/kustomize/testdata:
#   sh expected/kustomize.sh
set -eu
K=${KUSTOMIZE:-/work/tools/kustomize}
U=upstream/kustomize
$K build $U/helloWorld > expected/helloWorld.yaml
$K build $U/ldap/base > expected/ldap-base.yaml
$K build $U/ldap/overlays/staging > expected/ldap-staging.yaml
$K build $U/ldap/overlays/production > expected/ldap-production.yaml
$K build $U/multibases > expected/multibases.yaml
$K build $U/wordpress > expected/wordpress.yaml
F=upstream/flux2-kustomize-helm-example
$K build $F/apps/staging > expected/flux-example-apps-staging.yaml
$K build $F/apps/production > expected/flux-example-apps-production.yaml
$K build $F/infrastructure/controllers > expected/flux-example-infra-controllers.yaml
$K build --load-restrictor LoadRestrictionsNone flux/v1beta2-equivalent > expected/flux-v1beta2-equivalent.yaml
P=upstream/fluxcd-pkg-kustomize/openapiPollution
$K build $P/pollutor > expected/openapi-pollutor.yaml
$K build $P/victim > expected/openapi-victim.yaml
