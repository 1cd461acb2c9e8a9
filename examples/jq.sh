#!/usr/bin/env bash
# Scripts read docklens's --json output: the same bodies as the HTTP routes.
# Run it where `docklens` is on the PATH (README: npm link, npm i -g, or the packed tarball).
set -euo pipefail

# Clusters whose engine cannot be reached, with the reason.
docklens clusters --json | jq -r '.clusters[] | select(.error) | "\(.name): \(.error.message)"'

# Names of the running containers of every reachable cluster.
docklens ps --json | jq -r '.running[] | "\(.cluster.name)\t\(.Names[0])"'

# Where does web run?
docklens ps -a --filter name=web --json | jq -r '.containers[] | "\(.cluster.name)/\(.Names[0] | ltrimstr("/")) \(.State)"'

# Containers of each compose project, by cluster.
docklens ps -a --filter label=com.docker.compose.project --json |
  jq -r '.containers | group_by(.Labels["com.docker.compose.project"])[] | "\(.[0].Labels["com.docker.compose.project"]): \([.[] | "\(.cluster.name)/\(.Names[0] | ltrimstr("/"))"] | join(" "))"'

# Image references that mean different images on different clusters.
docklens drift --json | jq -r '.images[] | select(.drift) | .reference'

# Containers that exited with a non-zero code on the cluster "local".
docklens containers local --json | jq -r '.containers[] | select(.Status | test("^Exited \\([1-9]")) | .Names[0]'

# Unhealthy containers of every cluster.
docklens ps --filter health=unhealthy --json | jq -r '.containers[] | "\(.cluster.name)/\(.Names[0] | ltrimstr("/"))"'

# The same over HTTP, from a running `docklens serve --token "$DOCKLENS_TOKEN"` (skipped if none runs).
url=${DOCKLENS_URL:-http://127.0.0.1:8080}
if curl -sf -o /dev/null "$url/healthz"; then
  curl -sf -H "Authorization: Bearer ${DOCKLENS_TOKEN:-}" "$url/list/local/volumes" | jq -r '.Volumes[].Name'
else
  echo "no docklens serve answers on $url: the HTTP example is skipped" >&2
fi
