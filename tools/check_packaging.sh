#!/usr/bin/env bash
# Packaging smoke test (.ci/run): build a wheel and an sdist from a clean copy of the tracked
# files, install each into a fresh virtual environment, and check that the installed command
# runs the native kernel; then install once more with no C compiler (CC=/bin/false) and check
# that it installs and runs pure Python.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The tracked files plus the working tree's changes to them: what a clone would hold.
git ls-files -z --cached --others --exclude-standard | \
    grep -zv '^\.venv/' | xargs -0 cp --parents -t "$WORK" 2>/dev/null || true
mkdir -p "$WORK/src-copy"
(cd "$WORK" && find . -maxdepth 1 -mindepth 1 ! -name src-copy -exec mv {} src-copy/ \;)
SRC="$WORK/src-copy"
rm -rf "$SRC/build" && find "$SRC/src" -name '*.so' -delete

check() {   # venv expected-status
    local out
    out=$(cd / && "$1/bin/minegraph" --version)
    echo "  $out"
    case "$out" in *"($2)"*) ;; *) echo "expected ($2)"; exit 1 ;; esac
    printf 'mines: 1\n#1#\n' | (cd / && "$1/bin/minegraph" analyze --json -) | \
        "$1/bin/python" -c 'import json,sys; a=json.load(sys.stdin); assert a["solutions"]=="2", a'
}

echo "packaging: wheel and sdist"
"$PYTHON" -m venv "$WORK/tools"
"$WORK/tools/bin/pip" -q install build 'setuptools>=77' wheel 2>&1 | grep -v '^WARNING: Location' || true
# One build environment for both (the build requirements installed above), not two.
"$WORK/tools/bin/python" -m build -q --no-isolation -o "$WORK/dist" "$SRC" >/dev/null
install() {   # venv, what, environment...
    "$PYTHON" -m venv "$1"
    env "${@:3}" "$1/bin/pip" -q install "$2" 2>&1 | grep -v '^WARNING: Location' || true
}
# The three installs side by side (they spend their time unpacking dependencies).
rm -rf "$SRC/build"
install "$WORK/whl" "$(ls "$WORK"/dist/*.whl)" &
install "$WORK/tar.gz" "$(ls "$WORK"/dist/*.tar.gz)" &
install "$WORK/nocc" "$SRC" CC=/bin/false &
wait
for kind in whl tar.gz; do
    echo " installed from .$kind"; check "$WORK/$kind" native
done
echo "packaging: pip install . without a C compiler"
check "$WORK/nocc" pure
echo "packaging: all install paths work"
