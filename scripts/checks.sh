#!/usr/bin/env bash
# `npm test`'s checks beside its tests: the type check and the lint run while COMMAND runs, at the
# lowest CPU priority, so that they take the CPU the tests leave (engines starting, timers, the
# browser files one at a time) rather than a minute of both cores before the tests start. Their
# output comes after COMMAND's (a line each when they pass). Fails when any of the three fails.
#   scripts/checks.sh COMMAND [ARG...]
set -uo pipefail
cd "$(dirname "$0")/.."
typecheck_log=$(mktemp "${TMPDIR:-/tmp}/docklens-typecheck-XXXXXX")
lint_log=$(mktemp "${TMPDIR:-/tmp}/docklens-lint-XXXXXX")
nice -n 19 npm run typecheck >"$typecheck_log" 2>&1 &
typecheck=$!
nice -n 19 npm run lint >"$lint_log" 2>&1 &
lint=$!
# Ctrl-C ends the checks too; their logs go either way.
trap 'kill "$typecheck" "$lint" 2>/dev/null; rm -f "$typecheck_log" "$lint_log"' EXIT
"$@"
failed=$?
for check in typecheck lint; do
  pid=${!check} log="${check}_log"
  wait "$pid"
  status=$?
  if [ "$status" -eq 0 ]; then
    echo "== npm run $check, beside the tests: passed"
  else
    echo
    echo "== npm run $check, beside the tests: exit $status"
    cat "${!log}"
    failed=1
  fi
done
exit "$failed"
