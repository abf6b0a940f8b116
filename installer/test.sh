#!/usr/bin/env bash
# Builds Daemonscope with the CI preset (warnings are errors) and runs the whole test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/installer/install-deps.sh"
cd "$root"
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
