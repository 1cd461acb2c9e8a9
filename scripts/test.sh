#!/usr/bin/env bash
# The whole suite as vitest runs at once, each with engines of its own (test/setup/engines.ts):
#   - the unit files and the integration files that only read (four at a time), then the browser
#     files that change engines (one at a time), printed as they go;
#   - the other integration files that change engines, one at a time, printed after: in one run,
#     or in DOCKLENS_TEST_SHARDS runs (vitest's --shard) when that is set.
# Within one vitest run a group of projects waits for the one before (vitest.config.ts), so the
# files that change engines would wait for the read-only ones; they mostly wait on engines and
# timers, so they take the CPU the others leave. Fails when any run fails, and then repeats each
# failed run's failures last (a CI log may keep only its end).
#   scripts/test.sh [VITEST OPTION...]     the options go to every run: --exclude 'GLOB', ...
# Runs on the Node first on PATH (scripts/test-node.sh puts another there), if it is recent enough.
set -uo pipefail
cd "$(dirname "$0")/.."
# A Node older than docklens needs (a machine's own): the tests run on Node 24 from the npm
# registry instead, as the README's set-up line and CI do (scripts/node.sh).
node -e 'const [a, b] = process.versions.node.split(".").map(Number);
  process.exit(a > 22 || (a === 22 && b >= 13) ? 0 : 1)' || PATH=$(bash scripts/node.sh 24):$PATH
vitest=(node node_modules/vitest/vitest.mjs run)
shards=${DOCKLENS_TEST_SHARDS:-1}
logs=("$(mktemp "${TMPDIR:-/tmp}/docklens-lane-XXXXXX")")
names=("the run above")
pids=()
# Ctrl-C ends the runs beside too (background jobs of a script ignore it), and their engines.
trap 'kill "${pids[@]}" 2>/dev/null; rm -f "${logs[@]}"' EXIT
for shard in $(seq 1 "$shards"); do
  logs+=("$(mktemp "${TMPDIR:-/tmp}/docklens-lane-XXXXXX")")
  names+=("integration-alone, part $shard of $shards")
  part=()
  [ "$shards" -gt 1 ] && part=(--shard "$shard/$shards")
  "${vitest[@]}" --project integration-alone "${part[@]}" "$@" >"${logs[-1]}" 2>&1 &
  pids+=($!)
done
# Kept for the failures at the end; in colour still when printed to a terminal.
[ -t 1 ] && export FORCE_COLOR=1
"${vitest[@]}" --project unit --project integration --project integration-browser "$@" 2>&1 |
  tee "${logs[0]}"
status=("${PIPESTATUS[0]}")
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  status+=("$?")
  echo
  echo "== ${names[$((i + 1))]}, beside the run above"
  cat "${logs[$((i + 1))]}"
done
failed=0
for i in "${!status[@]}"; do
  [ "${status[$i]}" -eq 0 ] && continue
  failed=1
  echo
  echo "== what failed in ${names[$i]} (exit ${status[$i]})"
  # vitest's own account of failures, from its first "⎯ Failed … ⎯" or "⎯ Unhandled … ⎯" banner
  # to its count of tests; a run that ended before those (a crash) by its last lines.
  sed 's/\x1b\[[0-9;]*m//g' "${logs[$i]}" | awk '
    /⎯ (Failed (Tests|Suites) [0-9]+|Unhandled (Errors|Rejection)) ⎯/ { on = 1 }
    on && n == 300 { print "(cut: the whole account is above)"; on = 0 }
    on { print; n++ }
    /^ +Tests +[0-9]/ { on = 0 }
    END { if (!n) exit 1 }' || tail -n 40 "${logs[$i]}"
done
exit "$failed"
