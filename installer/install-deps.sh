#!/usr/bin/env bash
# Installs the Debian 12 packages listed in installer/debian-packages.txt.
# Idempotent: packages already present are not touched, and apt is only asked when one is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mapfile -t wanted < <(grep -Ev '^\s*(#|$)' "$here/debian-packages.txt")
missing=()
for p in "${wanted[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  if [[ "$status" != *"install ok installed"* ]]; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "installer: installing ${#missing[@]} Debian package(s): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "installer: all ${#wanted[@]} Debian packages present"
fi
