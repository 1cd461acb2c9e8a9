# Shared by engine.sh, podman.sh and test-deps.sh (sourced): install what is missing, start an
# engine's daemon detached, wait for its API, and give it the busybox image the tests and the
# set-up command use.

# What engine.sh needs: Docker, a static busybox for the image it imports; procps: the engine
# runs the host's ps for `docker top`; openssl: the TLS tests make certificates; jq and curl: the
# tests run examples/jq.sh.
ENGINE_PACKAGES=(dockerd=docker.io docker=docker.io /bin/busybox=busybox-static ps=procps
  openssl=openssl jq=jq curl=curl)

# Docker from Debian unstable, the engine users run today beside bookworm's 20.10 (docker.io,
# docker-cli, containerd and docker-init's tini-static), for engine.sh's --docker MAJOR: fetched
# with apt-get download from the machine's Debian mirror, with its keyring, and unpacked with
# dpkg-deb -x into the checkout's .cache/docker-MAJOR (gitignored; reused when there), installing
# nothing. Its runc is bookworm's (/usr/sbin/runc, of the runc package docker.io installs):
# unstable's (1.3) and trixie's (1.1.15) need glibc 2.38, bookworm has 2.36. Prints the folder;
# fails when unstable's docker.io is no longer MAJOR. Runs one at a time (test runs start at once).
DOCKER_UNSTABLE_PACKAGES=(docker.io docker-cli containerd tini-static)
docker_unstable() {
  local major=$1 cache
  cache="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.cache"
  mkdir -p "$cache"
  (
    flock 9
    [ -x "$cache/docker-$major/usr/sbin/dockerd" ] && exit 0
    local work mirror keyring version
    work=$(mktemp -d "$cache/docker-$major.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    mirror=$(awk '$1 == "URIs:" { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
    keyring=$(awk '$1 == "Signed-By:" { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
    mkdir -p "$work/lists/partial" "$work/archives/partial" "$work/parts" "$work/deb" "$work/root"
    echo "deb [signed-by=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}] ${mirror:-http://deb.debian.org/debian} unstable main" >"$work/sources.list"
    local apt=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/parts"
      -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work" -o Dir::State::status=/dev/null
      -o APT::Sandbox::User=root -qq)
    apt-get "${apt[@]}" update >&2
    version=$(apt-cache "${apt[@]}" policy docker.io | awk '$1 == "Candidate:" { print $2 }')
    if [[ $version != "$major".* ]]; then
      echo "$(basename "$0"): Debian unstable has docker.io $version now, not $major" >&2
      exit 1
    fi
    (cd "$work/deb" && apt-get "${apt[@]}" download "${DOCKER_UNSTABLE_PACKAGES[@]}" >&2)
    for deb in "$work"/deb/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
    mv "$work/root" "$cache/docker-$major"
  ) 9>"$cache/docker-$major.lock"
  echo "$cache/docker-$major"
}

# Install Debian's packages for the commands missing here, each asked as COMMAND=PACKAGE (COMMAND
# a name on the PATH, or the absolute path of a file the package installs). Quick when nothing is
# missing; as root it installs the missing packages; anyone else is told what to install, and it
# fails.
need_packages() {
  local pair missing=()
  for pair in "$@"; do
    local what=${pair%%=*} package=${pair#*=}
    if [[ $what == /* ]]; then [ -e "$what" ] && continue; else command -v "$what" >/dev/null && continue; fi
    [[ " ${missing[*]} " == *" $package "* ]] || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ]; then
    echo "$(basename "$0"): missing Debian packages: ${missing[*]}. As root: bash scripts/test-deps.sh (or apt-get install ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${missing[@]}" >&2
}

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
  # A link to it for each applet, all made by one process (Debian's perl-base is always there): an
  # ln for each took 1.5 s of CPU at every engine's start, nine engines at once in CI.
  perl -e 'chdir shift or die; symlink "busybox", $_ or die "$_: $!" for @ARGV' "$root/bin" \
    $(/bin/busybox --list | grep -vx busybox)
  echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
  tar -C "$root" -c . | docker -H "$sock" import -c 'ENV PATH=/bin' - local/busybox:1 >/dev/null
  rm -rf "$root"
}
