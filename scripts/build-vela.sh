#!/usr/bin/env bash
# build-vela.sh: builds the KubeVela CLI (`vela`) that the README's
# performance table measures `vela dry-run` with, from a git repository of
# github.com/kubevela/kubevela (a clone, or a bare mirror), at the commit
# drydock follows (KubeVela v1.11.0-alpha.4, 5a44b5f; /work/shared/DESIGN.md),
# and writes the definitions the benchmark applications use (webservice,
# scaler; scripts/perfcompare.sh's apps) as KubeVela ships them, for
# `vela dry-run --offline -d DEFDIR`.
#
#   scripts/build-vela.sh -g GITDIR [-c COMMIT] [-o VELA] [-d DEFDIR] [-r MODULE=DIR]...
#
# The build is kubevela's own (its go.mod and go.sum, untouched but for the
# -r replaces): CGO_ENABLED=0 go build -trimpath ./references/cmd/cli,
# modules from the Go module proxy. When the proxy refuses a module
# kubevela requires, check out that module's source at the version go.mod
# requires and pass -r MODULE=DIR: it becomes a replace directive in the
# build's copy of go.mod. Sources are unpacked under $WORK (default: a new
# temporary directory, removed afterwards). The README's figures were
# measured with a vela built this way with no -r at all (the proxy served
# every module of kubevela's go.mod), Go 1.26.8.
#
# Offline, vela dry-run still reads a kubeconfig (it exits 1, printing
# nothing, without one) and asks its server for CUE packages (an error it
# logs and goes on); scripts/perfcompare.sh gives it one naming a closed
# local port.
set -euo pipefail

commit=5a44b5f10c59f80a4fcd1990f59e024856c78cd8
gitdir= out=vela defdir=
replaces=()
while getopts g:c:o:d:r: opt; do
	case $opt in
	g) gitdir=$OPTARG ;;
	c) commit=$OPTARG ;;
	o) out=$OPTARG ;;
	d) defdir=$OPTARG ;;
	r) replaces+=("$OPTARG") ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
usage="usage: $0 -g GITDIR [-c COMMIT] [-o VELA] [-d DEFDIR] [-r MODULE=DIR]..."
[ $# -eq 0 ] || { echo "$usage" >&2; exit 2; }
if [ -z "$gitdir" ]; then
	echo "$usage" >&2
	echo "$0: -g names a git repository of github.com/kubevela/kubevela (git clone https://github.com/kubevela/kubevela)" >&2
	exit 2
fi
# a work tree's .git, or a bare repository
[ -d "$gitdir/.git" ] && gitdir=$gitdir/.git
if ! git --git-dir="$gitdir" rev-parse --git-dir >/dev/null 2>&1; then
	echo "$0: $gitdir is not a git repository: clone github.com/kubevela/kubevela and name it with -g" >&2
	exit 1
fi
if ! git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
	echo "$0: $gitdir does not have commit $commit (kubevela v1.11.0-alpha.4); fetch it, or name another with -c" >&2
	exit 1
fi
for r in ${replaces[@]+"${replaces[@]}"}; do
	case $r in
	?*=/?*) [ -f "${r#*=}/go.mod" ] || { echo "$0: -r $r: ${r#*=}/go.mod does not exist" >&2; exit 1; } ;;
	*) echo "$0: -r $r: want MODULE=/absolute/dir" >&2; exit 2 ;;
	esac
done
command -v go >/dev/null || { echo "$0: needs go" >&2; exit 1; }

work=${WORK:-}
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/build-vela-XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
src=$work/kubevela
rm -rf "$src"
mkdir -p "$src"
git --git-dir="$gitdir" archive "$commit" | tar -x -C "$src"

for r in ${replaces[@]+"${replaces[@]}"}; do
	(cd "$src" && go mod edit -replace "${r%%=*}=${r#*=}")
done

version=$(git --git-dir="$gitdir" describe --tags "$commit" 2>/dev/null || echo "$commit")
case $out in /*) ;; *) out=$PWD/$out ;; esac
echo "building vela $version ($commit) into $out" >&2
if ! (cd "$src" && GOTOOLCHAIN=${GOTOOLCHAIN:-local} CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
	-ldflags "-X github.com/oam-dev/kubevela/version.VelaVersion=$version -X github.com/oam-dev/kubevela/version.GitRevision=$commit" \
	-o "$out" ./references/cmd/cli) 2>"$work/build.err"; then
	cat "$work/build.err" >&2
	if grep -q '403\|410\|404 Not Found' "$work/build.err"; then
		echo "$0: the module proxy refused a module above: check out its source at the version kubevela's go.mod requires and pass -r MODULE=/its/dir" >&2
	fi
	exit 1
fi

if [ -n "$defdir" ]; then
	mkdir -p "$defdir"
	cp "$src/vela-templates/definitions/internal/component/webservice.cue" \
		"$src/vela-templates/definitions/internal/trait/scaler.cue" "$defdir/"
	echo "definitions webservice, scaler in $defdir" >&2
fi
