#!/usr/bin/env bash
# Proves the README's set-up on a brand-new Debian 12 machine: builds a clean Debian 12 root with
# `debootstrap --variant=minbase`, copies the committed tree (git HEAD) in and runs there, as a
# new user would, installer/install-deps.sh, the CMake configure and a build of the daemonscope
# target.
#
#   installer/check-fresh-machine.sh            the default level (what CI runs)
#   installer/check-fresh-machine.sh --full     also ./installer/test.sh whole in the clean root,
#                                               then the .deb built there installed with apt into a
#                                               second clean root, where the packaged app runs
#
# Needs root. Reaches only the Debian archive this machine's apt is configured for. The minbase
# root is cached as a tarball (build/fresh-machine/bookworm-minbase.tar.gz); the roots made from
# it are removed, and everything mounted into them unmounted, on every exit.
# The last line printed is `fresh machine: PASS`, `fresh machine: FAIL (<the first error>)`, or
# `fresh machine: SKIPPED (<why>)` when the Debian archive cannot be reached (exit 0 then).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tree="$(cd "$here/.." && pwd)"
full=0
for arg in "$@"; do
  case "$arg" in
    --full) full=1 ;;
    -h | --help)
      sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "check-fresh-machine: unknown option $arg (expected --full)" >&2
      echo "fresh machine: FAIL (unknown option $arg)"
      exit 2
      ;;
  esac
done

work="${FRESH_MACHINE_DIR:-$tree/build/fresh-machine}"
cache="$work/bookworm-minbase.tar.gz"
log="$work/check.log"
roots=()
mounts=()

pass() {
  echo "fresh machine: PASS"
  exit 0
}
fail() {
  echo "check-fresh-machine: $1" >&2
  [[ -f "$log" ]] && echo "check-fresh-machine: the log is $log; its last lines:" >&2 && tail -n 25 "$log" >&2
  echo "fresh machine: FAIL ($1)"
  exit 1
}
skip() {
  echo "fresh machine: SKIPPED ($1)"
  exit 0
}

cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount -l "${mounts[$i]}" 2>/dev/null || true
  done
  for r in "${roots[@]}"; do
    # Never follow a mount point out of the root: unmounted above, checked again here.
    if ! grep -q " $r/" /proc/mounts; then
      rm -rf --one-file-system "$r"
    else
      echo "check-fresh-machine: $r still has mounts; left in place" >&2
    fi
  done
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM

[[ "$(id -u)" == 0 ]] || {
  echo "fresh machine: FAIL (must run as root: debootstrap and chroot need it)"
  exit 1
}
mkdir -p "$work"
: >"$log"

# The Debian archive this machine's apt uses (deb822 .sources first, then sources.list).
mirror=""
debian_sources=""
for f in /etc/apt/sources.list.d/*.sources; do
  [[ -f "$f" ]] || continue
  if grep -qE '^Suites:.*\bbookworm\b' "$f" && grep -qE '^URIs:.*/debian/?$' "$f"; then
    mirror="$(grep -m1 -E '^URIs:.*/debian/?$' "$f" | awk '{print $2}')"
    debian_sources="$f"
    break
  fi
done
if [[ -z "$mirror" && -f /etc/apt/sources.list ]]; then
  mirror="$(grep -m1 -E '^deb\s+\S+\s+bookworm\s' /etc/apt/sources.list | awk '{print $2}')"
fi
[[ -n "$mirror" ]] || mirror="http://deb.debian.org/debian"
mirror="${mirror%/}"

# The host needs debootstrap (it is in debian-packages.txt, so install-deps.sh brings it).
if ! command -v debootstrap >/dev/null; then
  "$here/install-deps.sh" >>"$log" 2>&1 || fail "install-deps.sh failed on the host"
  command -v debootstrap >/dev/null || fail "debootstrap is not installed"
fi

make_cache() {
  local tmp="$work/minbase.tmp"
  rm -rf --one-file-system "$tmp"
  roots+=("$tmp")
  echo "check-fresh-machine: debootstrap --variant=minbase bookworm from $mirror"
  if ! debootstrap --variant=minbase bookworm "$tmp" "$mirror" >>"$log" 2>&1; then
    # Without the archive there is nothing to check: skipped, not failed.
    if grep -qE "Failed getting release file|Couldn't download|Temporary failure resolving|Could not resolve|Connection refused|Network is unreachable|timed out" "$log"; then
      skip "debootstrap cannot download from $mirror: $(grep -m1 -E "Failed getting release|Couldn't download|resolv|refused|unreachable|timed out" "$log" | cut -c1-160)"
    fi
    fail "debootstrap failed (see $log)"
  fi
  tar -C "$tmp" -czf "$cache.part" . >>"$log" 2>&1 || fail "cannot write $cache"
  mv "$cache.part" "$cache"
  rm -rf --one-file-system "$tmp"
}

# A new root from the cached tarball, with the host's Debian sources, DNS, /proc, /sys and /dev.
new_root() {
  local r="$1"
  rm -rf --one-file-system "$r"
  mkdir -p "$r"
  roots+=("$r")
  tar -C "$r" -xzf "$cache" || fail "cannot unpack $cache"
  if [[ -n "$debian_sources" ]]; then
    rm -f "$r/etc/apt/sources.list"
    cp "$debian_sources" "$r/etc/apt/sources.list.d/debian.sources"
  fi
  cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
  mount -t proc proc "$r/proc" && mounts+=("$r/proc") || fail "cannot mount /proc in $r"
  mount -t sysfs sys "$r/sys" && mounts+=("$r/sys") || fail "cannot mount /sys in $r"
  mount --bind /dev "$r/dev" && mounts+=("$r/dev") || fail "cannot bind /dev in $r"
  mount --bind /dev/pts "$r/dev/pts" && mounts+=("$r/dev/pts") || true
  if [[ -d /dev/shm ]]; then
    mount -t tmpfs shm "$r/dev/shm" && mounts+=("$r/dev/shm") || true
  fi
}

# Runs a shell command in a root as a fresh login would: root, a plain environment.
in_root() {
  local r="$1"
  shift
  chroot "$r" /usr/bin/env -i HOME=/root USER=root LOGNAME=root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin CI="${CI:-}" \
    /bin/bash -c "$*"
}

step() { # step NAME ROOT COMMAND...: logs the command's output, fails the check with NAME
  local name="$1" r="$2" out="$work/step.log"
  shift 2
  echo "check-fresh-machine: $name"
  echo "==== $name" >>"$log"
  in_root "$r" "$@" >"$out" 2>&1
  local rc=$?
  cat "$out" >>"$log"
  if ((rc != 0)); then
    local first
    first="$(grep -m1 -E 'CMake Error|error:|Error:|^E: |FAILED|Could not find|tests failed' "$out" |
      sed 's/^[[:space:]]*//' | cut -c1-200)"
    fail "$name failed (exit $rc)${first:+: $first}"
  fi
}

[[ -f "$cache" ]] || make_cache
echo "check-fresh-machine: using $cache"

# ---- the README's commands on a clean root -----------------------------------------------
build_root="$work/root"
new_root "$build_root"
mkdir -p "$build_root/src/daemonscope"
git -C "$tree" archive --format=tar HEAD | tar -x -C "$build_root/src/daemonscope" ||
  fail "cannot copy the committed tree (git archive HEAD)"
src=/src/daemonscope
step "install-deps.sh" "$build_root" "cd $src && ./installer/install-deps.sh"
step "configure" "$build_root" \
  "cd $src && cmake --preset release -DDAEMONSCOPE_BUILD_TESTS=OFF -DDAEMONSCOPE_BUILD_BENCHMARKS=OFF"
step "build daemonscope" "$build_root" "cd $src && cmake --build --preset release --target daemonscope"
step "daemonscope --version" "$build_root" "$src/build/release/app/daemonscope --version"
((full)) || pass

# ---- --full: the whole test suite there, then the .deb on a second clean root ------------
step "installer/test.sh" "$build_root" "cd $src && ./installer/test.sh"
step "build the .deb" "$build_root" "cd $src && cmake --build --preset release && cd build/release && cpack -G DEB"
deb="$(ls "$build_root$src/build/release/"daemonscope_*.deb 2>/dev/null | head -n1)"
[[ -n "$deb" ]] || fail "cpack made no daemonscope_*.deb"

deb_root="$work/deb-root"
new_root "$deb_root"
cp "$deb" "$deb_root/tmp/"
cp "$tree/resources/scenarios/demo.yaml" "$deb_root/tmp/demo.yaml" 2>/dev/null ||
  git -C "$tree" show HEAD:resources/scenarios/demo.yaml >"$deb_root/tmp/demo.yaml"
step "apt-get install ./$(basename "$deb")" "$deb_root" \
  "export DEBIAN_FRONTEND=noninteractive; apt-get update -q && apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")"
step "packaged daemonscope --version" "$deb_root" "daemonscope --version"
step "packaged daemonscope sim run demo.yaml" "$deb_root" "daemonscope sim run /tmp/demo.yaml"
# The screenshot has text in it only when the package's dependencies brought fonts.
step "packaged offscreen screenshot" "$deb_root" \
  "cd /tmp && QT_QPA_PLATFORM=offscreen daemonscope --screenshot /tmp/shot.png --quit-after 1500 2>/tmp/shot.err;
   rc=\$?; cat /tmp/shot.err; [ \$rc = 0 ] || exit \$rc;
   if grep -E 'Cannot find font|Could not find the Qt platform plugin|driver not loaded' /tmp/shot.err; then exit 1; fi;
   head -c 8 /tmp/shot.png | od -An -c | grep -q 'P   N   G' && [ \$(stat -c %s /tmp/shot.png) -gt 20000 ]"
cp "$deb_root/tmp/shot.png" "$work/packaged-screenshot.png" 2>/dev/null || true
pass
