#!/usr/bin/env bash
# Builds Daemonscope (release preset) and launches it on the embedded demo cluster.
# Extra arguments are passed to the app. Without a display it starts under xvfb-run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/installer/install-deps.sh"
cd "$root"
cmake --preset release -DDAEMONSCOPE_BUILD_TESTS=OFF -DDAEMONSCOPE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build --preset release --target daemonscope
app="$root/build/release/app/daemonscope"
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "run: no display found; starting under xvfb-run (set DISPLAY to see the window)"
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$app" "$@"
fi
exec "$app" "$@"
