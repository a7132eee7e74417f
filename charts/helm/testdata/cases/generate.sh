#!/bin/sh
# Regenerates every case's expected output with the pinned Helm
# (v4.3.1, /work/tools/helm). Each case's cmd file holds the exact
# arguments, run from the case directory:
#   helm $(cat cmd) > want.yaml        (exit 0)
#   helm $(cat cmd) 2> want-error.txt  (exit != 0)
set -e
HELM=${HELM:-/work/tools/helm}
cd "$(dirname "$0")"
for d in */; do
	d=${d%/}
	(
		cd "$d"
		rm -f want.yaml want-error.txt
		# shellcheck disable=SC2046
		if "$HELM" $(cat cmd) >want.yaml 2>stderr.txt; then
			rm -f stderr.txt
		else
			rm -f want.yaml
			mv stderr.txt want-error.txt
		fi
	)
done
