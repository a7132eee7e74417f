#!/usr/bin/env bash
# perfcompare.sh: the README's performance table, measured. Runs drydock
# builds (and conftest and `vela dry-run`, when given) on the same
# generated inputs, interleaved (each round runs every build once per
# scenario, so that a machine's drift hits them alike), and prints, per
# scenario and build, the median and range of CPU seconds (user+sys) and
# of peak RSS, as /usr/bin/time measures them for the process (for a loop
# of processes: their summed CPU, the largest one's peak RSS).
#
#   scripts/perfcompare.sh [-n ROUNDS] [-c CONFTEST] [-v VELA -d DEFDIR] NAME=DRYDOCK...
#
# -c CONFTEST runs conftest on the plain files. -v VELA -d DEFDIR runs
# `vela dry-run --offline -d DEFDIR` (vela built, and DEFDIR written, by
# scripts/build-vela.sh) on the one-app render, and on PER_APP (default
# 100) applications one process per application file, as vela renders
# them, next to every drydock build doing the same. ONLY=REGEXP keeps the
# scenarios whose names match. Build as releases are built, the front and
# its engine into one directory:
#   CGO_ENABLED=0 go build -trimpath -o /tmp/dd/ ./cmd/drydock ./cmd/drydock-engine
# and name the front (NAME=/tmp/dd/drydock): it execs the engine beside it,
# in the same process, so /usr/bin/time measures both (CPU summed, peak RSS
# the larger). NAME=/tmp/dd/drydock-engine measures the engine alone (its
# own start, without the front); a build from before the split is one
# binary. Inputs and trees go under $WORK (default: a directory on
# /dev/shm when there is one). Needs GNU time (/usr/bin/time).
set -euo pipefail

rounds=3
conftest= vela= defdir=
while getopts n:c:v:d: opt; do
	case $opt in
	n) rounds=$OPTARG ;;
	c) conftest=$OPTARG ;;
	v) vela=$OPTARG ;;
	d) defdir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-n ROUNDS] [-c CONFTEST] [-v VELA -d DEFDIR] NAME=DRYDOCK..." >&2; exit 2; }
[ -z "$vela" ] || [ -d "$defdir" ] || { echo "$0: -v needs -d DEFDIR, the definitions' directory (scripts/build-vela.sh -d)" >&2; exit 2; }
per_app=${PER_APP:-100}
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 2; }

base=${WORK:-$( [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}
work=$(mktemp -d "$base/drydock-perf-XXXXXX")
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")/.." && pwd)

# apps N: the benchmarks' webservice+scaler applications
# (generateApps in cmd/drydock-engine/bench_test.go), byte for byte.
apps() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "---\napiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: app-%d\n  namespace: team-%d\nspec:\n  components:\n    - name: web-%d\n      type: webservice\n      properties:\n        image: registry.example.com/web:%d\n        ports:\n          - port: 8080\n            expose: true\n        env:\n          - name: INDEX\n            value: \"%d\"\n      traits:\n        - type: scaler\n          properties:\n            replicas: %d\n", i, i % 10, i, i, i, 1 + i % 5 }'
}
apps 1 >"$work/app1.yaml"
# The first PER_APP of those, one application a file (vela dry-run reads
# one object a file), and a loop that runs a command once per file.
mkdir "$work/each"
apps "$per_app" | awk -v d="$work/each" '/^---$/ { if (f) close(f); f = sprintf("%s/app-%06d.yaml", d, n++) } { print > f }'
printf '%s\n' 'd=$1; shift; for f in "$d"/*.yaml; do "$@" "$f" >/dev/null || exit 1; done' >"$work/each.sh"
apps 1000 >"$work/apps1000.yaml"
apps 10000 >"$work/apps10000.yaml"
# The same with one application's image changed: a warm render's input.
for n in 1000 10000; do
	sed 's|registry.example.com/web:7$|registry.example.com/web:7-changed|' "$work/apps$n.yaml" >"$work/apps$n-changed.yaml"
done
if [[ "2,580 plain files, test -p" =~ ${ONLY:-.} ]]; then
	(cd "$here" && go test -count=1 ./cmd/drydock-engine -run '^TestPlainBenchFiles$' -plain-files-out "$work/plain" -plain-files-n 2580 >/dev/null)
fi
# vela reads a kubeconfig even offline (it exits 1, silently, without
# one) and asks its server for CUE packages (refused at once: logged,
# not fatal); its home directory is one of its own under $work.
cat >"$work/kubeconfig" <<'EOF'
apiVersion: v1
kind: Config
clusters: [{name: none, cluster: {server: "https://127.0.0.1:1"}}]
contexts: [{name: none, context: {cluster: none, user: none}}]
current-context: none
users: [{name: none, user: {}}]
EOF
mkdir "$work/home"
velarun=(env KUBECONFIG="$work/kubeconfig" HOME="$work/home" "$vela" dry-run --offline -d "$defdir" -f)
policy=$here/cmd/drydock-engine/testdata/plainbench/policy

# scenario NAME ARGS...: what each build runs ({} is the build).
scenarios=(
	"version|{} version"
	"one app, render to stdout|{} render $work/app1.yaml --no-cache"
	"$per_app apps, one process per app, render to stdout|bash $work/each.sh $work/each {} render --no-cache"
	"1,000 apps, render --output-dir|{} render $work/apps1000.yaml --no-cache --output-dir $work/out"
	"10,000 apps, render --output-dir|{} render $work/apps10000.yaml --no-cache --output-dir $work/out"
	"2,580 plain files, test -p|{} test -p $policy $work/plain"
	"1,000 apps, one changed, warm cache|{} render $work/warm1000.yaml --cache $work/cache1000 --output-dir $work/out"
	"10,000 apps, one changed, warm cache|{} render $work/warm10000.yaml --cache $work/cache10000 --output-dir $work/out"
)

declare -A cpu rss
run() { # key cmd...
	local key=$1
	shift
	# a warm render updates the tree the warm-up wrote; the others write a new one
	[[ "$*" == *--cache* ]] || rm -rf "$work/out"
	/usr/bin/time -f '%U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || true
	read -r u s m < <(tail -1 "$work/t") || true
	case "$u" in '' | *[!0-9.]*) echo "$key: $(cat "$work/t" "$work/err" | tail -3)" >&2; return ;; esac
	cpu[$key]+="$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') "
	rss[$key]+="$((m / 1024)) "
}
for ((r = 0; r < rounds; r++)); do
	for sc in "${scenarios[@]}"; do
		name=${sc%%|*} cmd=${sc#*|}
		[[ $name =~ ${ONLY:-.} ]] || continue
		for b in "$@"; do
			bin=${b#*=}
			c=${cmd//\{\}/$bin}
			# --no-cache is new: an older build renders without a cache anyway
			"$bin" render --help 2>&1 | grep -q -- --no-cache || c=${c// --no-cache/}
			if [[ $c == *--cache* ]]; then
				"$bin" render --help 2>&1 | grep -q -- --no-cache || continue
				# the cache holds the unchanged inputs' renders, and only those
				dir=${c##*--cache }
				dir=${dir%% *}
				# warm: the unchanged applications rendered into the cache,
				# then one edited in place (keys name the file)
				n=${dir##*cache}
				rm -rf "$dir" "$work/out"
				cp "$work/apps$n.yaml" "$work/warm$n.yaml"
				# shellcheck disable=SC2086
				$c >/dev/null 2>&1
				cp "$work/apps$n-changed.yaml" "$work/warm$n.yaml"
			fi
			# shellcheck disable=SC2086
			run "$name|${b%%=*}" $c
		done
		if [ -n "$conftest" ] && [ "$name" = "2,580 plain files, test -p" ]; then
			run "$name|conftest" "$conftest" test -p "$policy" "$work/plain"
		fi
		if [ -n "$vela" ]; then
			case $name in
			"one app, render to stdout") run "$name|vela" "${velarun[@]}" "$work/app1.yaml" ;;
			"$per_app apps, one process per app"*) run "$name|vela" bash "$work/each.sh" "$work/each" "${velarun[@]}" ;;
			esac
		fi
	done
done

stat() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%s (%s–%s)", m, a[1], a[NR]}'; }
printf '| scenario | build | CPU s, median (range) | peak RSS MiB, median (range) |\n|---|---|---|---|\n'
for sc in "${scenarios[@]}"; do
	name=${sc%%|*}
	for b in "$@" conftest vela; do
		key="$name|${b%%=*}"
		[ -n "${cpu[$key]:-}" ] || continue
		printf '| %s | %s | %s | %s |\n' "$name" "${b%%=*}" "$(echo "${cpu[$key]}" | stat)" "$(echo "${rss[$key]}" | stat)"
	done
done
