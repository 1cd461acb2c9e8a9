#!/usr/bin/env bash
# Scripts read docklens's --json output: the same bodies as the HTTP routes.
# Run it where `docklens` is on the PATH (README: npm link, npm i -g, or the packed tarball).
set -euo pipefail

# Clusters whose engine cannot be reached, with the reason.
docklens clusters --json | jq -r '.clusters[] | select(.error) | "\(.name): \(.error.message)"'

# Names of the running containers of every reachable cluster.
for c in $(docklens clusters --json | jq -r '.clusters[] | select(.error | not) | .name'); do
  docklens containers "$c" --json | jq -r --arg c "$c" '.running[] | "\($c)\t\(.Names[0])"'
done

# Containers that exited with a non-zero code on the cluster "local".
docklens containers local --json | jq -r '.containers[] | select(.Status | test("^Exited \\([1-9]")) | .Names[0]'

# Unhealthy containers of the cluster "local".
docklens containers local --json | jq -r '.running[] | select(.Status | test("\\(unhealthy\\)")) | .Names[0]'

# The same over HTTP, from a running `docklens serve --token "$DOCKLENS_TOKEN"` (skipped if none runs).
url=${DOCKLENS_URL:-http://127.0.0.1:8080}
if curl -sf -o /dev/null "$url/healthz"; then
  curl -sf -H "Authorization: Bearer ${DOCKLENS_TOKEN:-}" "$url/list/local/volumes" | jq -r '.Volumes[].Name'
else
  echo "no docklens serve answers on $url: the HTTP example is skipped" >&2
fi
