#!/usr/bin/env bash
# Print the folder of Node VERSION from the npm registry's `node` package (fetched once, then
# kept in npm's cache), to put first on PATH: a machine's own Node may be older than docklens
# needs (package.json's engines), and npm, the tests and docklens then run on this one:
#   PATH=$(bash scripts/node.sh 24):$PATH
set -euo pipefail
version=${1:?usage: scripts/node.sh VERSION}
node_path=$(npm exec --yes --package "node@$version" -- node -e 'process.stdout.write(process.execPath)')
dirname "$node_path"
