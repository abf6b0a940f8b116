#!/usr/bin/env bash
# usage: check-deb.sh BUILD_DIR VERSION
set -euo pipefail
build="$1"
version="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$build"
cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb="$work/out/daemonscope_${version}_amd64.deb"
[[ -f "$deb" ]] || { echo "package not found: $deb"; ls -l "$work/out"; exit 1; }
# Read the control data into a variable first: `grep -q` in a pipeline under pipefail can
# close the pipe early and fail the writer with SIGPIPE.
info="$(dpkg-deb --info "$deb")"
[[ "$info" == *"Depends: "*libqt6widgets6* ]] || { echo "Depends line missing Qt:"; echo "$info"; exit 1; }
dpkg-deb -x "$deb" "$work/root"
out="$("$work/root/usr/bin/daemonscope" --version)"
[[ "$out" == "daemonscope $version" ]] || { echo "unexpected --version output: $out"; exit 1; }
# The sub-commands and the GUI live in the program module, found relative to the installed
# executable.
module_help="$("$work/root/usr/bin/daemonscope" serve --help)" || { echo "serve --help failed"; exit 1; }
[[ "$module_help" == *"daemonscope serve"* ]] || { echo "unexpected serve --help output: $module_help"; exit 1; }
[[ -f "$work/root/usr/lib/daemonscope/daemonscope-app.so" ]] || { echo "program module missing"; exit 1; }
desktop-file-validate "$work/root/usr/share/applications/io.daemonscope.Daemonscope.desktop"
appstreamcli validate --no-net "$work/root/usr/share/metainfo/io.daemonscope.Daemonscope.metainfo.xml"
[[ -f "$work/root/usr/share/icons/hicolor/scalable/apps/daemonscope.svg" ]] || { echo "icon missing"; exit 1; }
echo "package ok: $(basename "$deb") ($(stat -c %s "$deb") bytes)"
