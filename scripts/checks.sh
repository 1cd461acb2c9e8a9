#!/usr/bin/env bash
# What `npm test` checks before the tests: the type check and the lint at once (each keeps one
# core busy for most of a minute), then the build the integration tests run, then the docs site
# (VitePress: a dead link between its pages fails it; about 15 s). Fails if any fails.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run typecheck &
typecheck=$!
npm run lint &
lint=$!
failed=0
wait "$typecheck" || failed=1
wait "$lint" || failed=1
[ "$failed" -eq 0 ]
npm run build
npm run docs:build
