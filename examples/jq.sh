#!/usr/bin/env bash
# Scripts read docklens's --json output: the same bodies as the HTTP routes.
set -euo pipefail

# Clusters whose engine cannot be reached, with the reason.
docklens clusters --json | jq -r '.clusters[] | select(.error) | "\(.name): \(.error.message)"'

# Names of the running containers of every reachable cluster.
for c in $(docklens clusters --json | jq -r '.clusters[] | select(.error | not) | .name'); do
  docklens containers "$c" --json | jq -r --arg c "$c" '.running[] | "\($c)\t\(.Names[0])"'
done

# Containers that exited with a non-zero code on the cluster "local".
docklens containers local --json | jq -r '.containers[] | select(.Status | test("^Exited \\([1-9]")) | .Names[0]'

# The same over HTTP, from a running `docklens serve --token "$DOCKLENS_TOKEN"`.
curl -sf -H "Authorization: Bearer ${DOCKLENS_TOKEN:-}" http://127.0.0.1:8080/list/local/volumes | jq -r '.Volumes[].Name'
