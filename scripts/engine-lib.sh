# Shared by engine.sh and podman.sh (sourced): start an engine's daemon detached, wait for its
# API, and give it the busybox image the tests and the set-up command use.

# Run "$@" as a daemon in its own session, its output in LOG, from a subshell that first closes
# every inherited descriptor above 2: whoever started us (a test runner reading our output
# through a pipe) must not be held open by the daemon, nor by what it starts (Podman's conmon).
detach() {
  local log=$1
  shift
  (
    for fd in $(ls /proc/$BASHPID/fd); do
      [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null || true
    done
    exec setsid "$@" </dev/null >"$log" 2>&1
  ) &
  DETACHED_PID=$!
}

# Wait up to 30 s for the engine API at SOCK to answer; else show LOG and fail.
wait_for_api() {
  local sock=$1 log=$2 tries=0
  until docker -H "$sock" version >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 150 ]; then
      echo "$(basename "$0"): the engine of $sock did not start within 30 s; its log:" >&2
      tail -n 20 "$log" >&2
      exit 1
    fi
    sleep 0.2
  done
}

# Import local/busybox:1, built from the machine's /bin/busybox (no registry is reachable).
import_busybox() {
  local sock=$1 root
  docker -H "$sock" image inspect local/busybox:1 >/dev/null 2>&1 && return
  root=$(mktemp -d)
  mkdir -p "$root/bin" "$root/tmp" "$root/etc"
  cp /bin/busybox "$root/bin/busybox"
  for applet in $(/bin/busybox --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$root/bin/$applet"
  done
  echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
  tar -C "$root" -c . | docker -H "$sock" import -c 'ENV PATH=/bin' - local/busybox:1 >/dev/null
  rm -rf "$root"
}
