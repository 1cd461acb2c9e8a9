#!/usr/bin/env bash
# Start or stop a throwaway Docker engine that lives in a directory of its own.
# It never touches /var/run/docker.sock, and it imports a busybox image (local/busybox:1)
# built from the machine's /bin/busybox, since no registry is reachable.
#
#   scripts/engine.sh start DIR [tcp://127.0.0.1:PORT]   start (or reuse) it; prints its DOCKER_HOST
#   scripts/engine.sh start --docker 28 DIR [...]        the same with Debian unstable's Docker 28
#                                                        (fetched once into .cache/docker-28)
#   scripts/engine.sh docker 28                          fetch that Docker; prints its folder, whose
#                                                        usr/bin holds its docker CLI
#     DOCKLENS_CONTAINERD_STORE=1 scripts/engine.sh start --docker 28 ...   with the containerd
#                                                        image store in place of overlay2
#   scripts/engine.sh stop DIR                           stop it and delete DIR
#   scripts/engine.sh install                            install Debian's docker.io, busybox-static, procps, openssl, jq, curl
set -euo pipefail
. "$(dirname "$0")/engine-lib.sh"

start() {
  local features=()
  if [ "$1" = --docker ]; then
    [ -n "${DOCKLENS_CONTAINERD_STORE:-}" ] && features=(--feature containerd-snapshotter)
    local usr
    usr=$(docker_unstable "$2")/usr
    # Its dockerd, containerd, containerd-shim-runc-v2 and docker CLI first; bookworm's runc after.
    PATH="$usr/bin:$usr/sbin:$PATH"
    shift 2
  fi
  local dir=$1 tcp=${2:-}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  local sock="unix://$dir/docker.sock"
  if ! docker -H "$sock" version >/dev/null 2>&1; then
    # The daemon's temp files (containerd's stack dumps among them) stay in DIR, removed with it.
    mkdir -p "$dir/tmp"
    TMPDIR="$dir/tmp" detach "$dir/dockerd.log" dockerd --host "$sock" ${tcp:+--host "$tcp"} \
      --data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/docker.pid" \
      --bridge none --iptables=false --ip-masq=false --ip-forward=false \
      --userland-proxy=false --shutdown-timeout 1 --log-level warn "${features[@]}"
    wait_for_api "$sock" "$dir/dockerd.log"
  fi
  import_busybox "$sock"
  echo "${tcp:-$sock}"
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  if [ -f "$dir/docker.pid" ]; then
    local pid sock="unix://$dir/docker.sock"
    # Its running containers killed first, all at once: dockerd on its way out took 13 s to stop four.
    docker -H "$sock" ps -q 2>/dev/null | xargs -r docker -H "$sock" kill >/dev/null 2>&1 || true
    pid=$(cat "$dir/docker.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  # Whatever the daemon left mounted below DIR goes before DIR does.
  grep -o " $dir/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$dir"
}

usage() {
  echo "usage: $0 install | start [--docker MAJOR] DIR [tcp://127.0.0.1:PORT] | stop DIR | docker MAJOR" >&2
  exit 2
}

docker=()
case "${1:-}" in
  install) need_packages "${ENGINE_PACKAGES[@]}" ;;
  start)
    shift
    if [ "${1:-}" = --docker ]; then
      [ -n "${2:-}" ] || usage
      docker=(--docker "$2")
      shift 2
    fi
    [ -n "${1:-}" ] || usage
    need_packages "${ENGINE_PACKAGES[@]}"
    start "${docker[@]}" "$1" "${2:-}"
    ;;
  stop) [ -n "${2:-}" ] || usage; stop "$2" ;;
  docker) [ -n "${2:-}" ] || usage; docker_unstable "$2" ;;
  *) usage ;;
esac
