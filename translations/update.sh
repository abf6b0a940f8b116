#!/bin/sh
# Extracts every tr()/translate() string of the GUI (ui/, models/ and the GUI's command-line
# help in app/guimain.cpp) into the translation files:
#   daemonscope_de.ts  every message (German translations are filled in with Qt Linguist)
#   daemonscope_en.ts  only messages with plural forms ("%n node(s)" -> "1 node", "5 nodes")
# Obsolete messages are dropped, so the files hold exactly what the sources use. The build
# compiles the .ts files with lrelease into the binary (ui/CMakeLists.txt); the CMake target
# `update_translations` (or `ui_lupdate`) runs this script.
#
# Usage: translations/update.sh [--ts-dir DIR] [--quiet]
#   --ts-dir DIR  update DIR/daemonscope_{en,de}.ts instead of the ones in translations/
#                 (the i18n test updates a temporary copy)
# Environment: LUPDATE = the lupdate to run (default: Qt 6's lupdate on PATH or in /usr/lib/qt6/bin).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
tsdir="$root/translations"
quiet=""
while [ $# -gt 0 ]; do
    case "$1" in
    --ts-dir) tsdir=$2; shift 2 ;;
    --quiet) quiet="-silent"; shift ;;
    *) echo "usage: $0 [--ts-dir DIR] [--quiet]" >&2; exit 2 ;;
    esac
done

lupdate=${LUPDATE:-}
if [ -z "$lupdate" ]; then
    for candidate in lupdate-qt6 /usr/lib/qt6/bin/lupdate /usr/lib/qt6/libexec/lupdate lupdate; do
        if command -v "$candidate" >/dev/null 2>&1; then lupdate=$candidate; break; fi
    done
fi
[ -n "$lupdate" ] || { echo "update.sh: lupdate (Qt 6 LinguistTools) not found; set LUPDATE" >&2; exit 2; }

cd "$root"
# The sources, sorted so the result does not depend on the file system's order. Only the Qt
# layers: ui/ and the Qt bridge's room folders of models/ (those without a CMakeLists.txt of
# their own); kube, diff, engine, client and server never include Qt and hold no translatable
# text.
rooms=
for dir in models/*/; do
    [ -e "$dir/CMakeLists.txt" ] || rooms="$rooms ${dir}*.cpp ${dir}*.h"
done
# shellcheck disable=SC2086
sources=$(ls ui/*.cpp ui/*.h $rooms app/guimain.cpp | LC_ALL=C sort)

# -I lets lupdate resolve the includes, so tr() in "namespace gui { ... }" gets the context
# "gui::MainWindow" the compiled code uses.
# shellcheck disable=SC2086
"$lupdate" $quiet -no-obsolete -locations none -I "$root" $sources -ts "$tsdir/daemonscope_de.ts"
# shellcheck disable=SC2086
"$lupdate" $quiet -no-obsolete -locations none -pluralonly -I "$root" $sources -ts "$tsdir/daemonscope_en.ts"
