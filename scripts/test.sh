#!/usr/bin/env bash
# The whole suite as two vitest runs at once, each with engines of its own (test/setup/engines.ts):
#   - the unit files and the integration files that only read (four at a time), then the browser
#     files that change engines (one at a time), printed as they go;
#   - the other integration files that change engines, one at a time, printed after.
# Within one vitest run a group of projects waits for the one before (vitest.config.ts), so the
# files that change engines would wait for the read-only ones; they mostly wait on engines and
# timers, so they take the CPU the others leave. Fails when either run fails.
#   scripts/test.sh [VITEST OPTION...]     the options go to both runs: --exclude 'GLOB', ...
# Runs on the Node first on PATH (scripts/test-node.sh puts another there).
set -uo pipefail
cd "$(dirname "$0")/.."
vitest=(node node_modules/vitest/vitest.mjs run)
log=$(mktemp "${TMPDIR:-/tmp}/docklens-lane-XXXXXX")
trap 'rm -f "$log"' EXIT

"${vitest[@]}" --project integration-alone "$@" >"$log" 2>&1 &
changing=$!
"${vitest[@]}" --project unit --project integration --project integration-browser "$@"
reading=$?
wait "$changing"
changed=$?
echo
echo "== integration-alone, beside the run above"
cat "$log"
[ "$reading" -eq 0 ] && [ "$changed" -eq 0 ]
