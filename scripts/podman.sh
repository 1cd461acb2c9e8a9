#!/usr/bin/env bash
# Start or stop a throwaway Podman engine (its Docker-compatible API on a unix socket) that
# lives in a directory of its own: its storage and socket are below DIR, its runtime files in
# /run/docklens-podman-<hash of DIR> (Podman refuses a runroot longer than 50 characters, which
# a DIR in a test run's temp dir is), and stop removes both.
# It imports the busybox image (local/busybox:1) built from the machine's /bin/busybox.
#
#   scripts/podman.sh start DIR     start (or reuse) it; prints its DOCKER_HOST
#   scripts/podman.sh stop DIR      stop it, its containers, and delete DIR
#   scripts/podman.sh install       install Debian's podman
set -euo pipefail
. "$(dirname "$0")/engine-lib.sh"

# Podman reads where to keep things from these files; its default rlimits are refused on
# these machines, so containers get none of their own (default_ulimits = []). Its temporary
# files go to DIR/scratch: the service writes each image the API imports to $TMPDIR/api_load.tar*
# and never removes it (Podman 4.3), and copies images through image_copy_tmp_dir (/var/tmp).
# On every /info and /version Podman asks dpkg which package holds conmon, runc and slirp4netns
# (/usr/bin/dpkg-query --search, then -W: 6 runs, ~0.35 s of CPU each, which made Podman's /info
# take 0.7 s idle and pass 5 s under the tests' load); the service reads an empty dpkg database
# instead (DPKG_ADMINDIR), so it answers at once and names those packages "Unknown".
configure() {
  local dir=$1
  run_root="/run/docklens-podman-$(printf %s "$dir" | sha1sum | cut -c1-12)"
  mkdir -p "$dir/tmp" "$dir/scratch"
  printf '[storage]\ndriver = "overlay"\nrunroot = "%s"\ngraphroot = "%s/root"\n' "$run_root" "$dir" >"$dir/storage.conf"
  printf '[containers]\ndefault_ulimits = []\n[engine]\ntmp_dir = "%s/tmp"\nimage_copy_tmp_dir = "%s/scratch"\n' "$dir" "$dir" >"$dir/containers.conf"
  export CONTAINERS_STORAGE_CONF="$dir/storage.conf" CONTAINERS_CONF="$dir/containers.conf" TMPDIR="$dir/scratch"
}

podman_in() {
  local dir=$1
  shift
  podman --root "$dir/root" --runroot "$run_root" "$@"
}

start() {
  local dir=$1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  configure "$dir"
  local sock="unix://$dir/podman.sock"
  if ! docker -H "$sock" version >/dev/null 2>&1; then
    mkdir -p "$dir/dpkg/info" "$dir/dpkg/updates"
    : >"$dir/dpkg/status"
    DPKG_ADMINDIR="$dir/dpkg" detach "$dir/service.log" podman --root "$dir/root" --runroot "$run_root" system service --time=0 "$sock"
    echo "$DETACHED_PID" >"$dir/service.pid"
    wait_for_api "$sock" "$dir/service.log"
  fi
  # Tagged as local/busybox:1 (podman would name an untagged import localhost/local/busybox:1).
  import_busybox "$sock"
  echo "$sock"
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  dir=$(cd "$dir" && pwd)
  configure "$dir"
  # Containers first: their conmon processes are not the service's children.
  podman_in "$dir" rm --all --force --time 0 >/dev/null 2>&1 || true
  # An exec's conmon outlives its container by Podman's exec --exit-delay (5 minutes): end those
  # of this engine (their bundle, -b, is below DIR) rather than leave them running.
  local proc args
  for proc in /proc/[0-9]*; do
    [ "$(cat "$proc/comm" 2>/dev/null)" = conmon ] || continue
    args=$(tr '\0' ' ' <"$proc/cmdline" 2>/dev/null) || continue
    case "$args" in *" -b $dir/"*) kill -9 "${proc#/proc/}" 2>/dev/null || true ;; esac
  done
  if [ -f "$dir/service.pid" ]; then
    local pid
    pid=$(cat "$dir/service.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  podman_in "$dir" system reset --force >/dev/null 2>&1 || true
  grep -oE " ($dir|$run_root)/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$dir" "$run_root"
}

case "${1:-}" in
  install) need_packages podman=podman ;;
  start) [ -n "${2:-}" ] || { echo "usage: $0 start DIR" >&2; exit 2; }; need_packages podman=podman; start "$2" ;;
  stop) [ -n "${2:-}" ] || { echo "usage: $0 stop DIR" >&2; exit 2; }; stop "$2" ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
