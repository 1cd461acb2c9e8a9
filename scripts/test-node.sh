#!/usr/bin/env bash
# Run the test suite on another Node version, from the npm registry's `node` package:
#   scripts/test-node.sh 26      (after `npm test`, which built dist/)
#   scripts/test-node.sh 26 test/integration/serve.test.ts      (some files only)
# Its node comes first on PATH, so that what the tests start (the CLI, npx) runs on it too.
# The dashboard's browser tests run once, in `npm test`: the page does not depend on the
# server's Node version; nor does type-checking a consumer of the published types. Without them,
# the read-only files finish early and leave the CPU to the files that change engines, which run
# in two halves (with the browser files, three runs at once slowed the browser tests past their
# time limit).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/test-node.sh VERSION [FILE...]}
shift
PATH=$(bash scripts/node.sh "$version"):$PATH
echo "== tests on Node $(node --version)"
exclude=(--exclude 'test/integration/browser/**' --exclude test/integration/published-types.test.ts
  --exclude '**/node_modules/**')
if [ "$#" -gt 0 ]; then
  node node_modules/vitest/vitest.mjs run "${exclude[@]}" "$@"
else
  DOCKLENS_TEST_SHARDS=2 bash scripts/test.sh "${exclude[@]}"
fi
