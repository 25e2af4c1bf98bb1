#!/usr/bin/env bash
# The Python package as a new user gets it: a fresh venv, `pip install` of
# the checkout (maturin builds the rpy3._native extension), then pytest on
# pyext/tests/test_package.py from outside the checkout, with the plugin
# found through its entry point: rpy3.interpret, @pytest.mark.rpy3 and
# Translation(f, [int]).compile(backend="c") called from Python.
#
# The extension is a debug build (maturin's `--profile dev`: the
# workspace's profile, its dependencies at -O1) in a target directory of
# its own, target/pkg: maturin configures pyo3 for an extension module,
# so sharing target/ with `cargo build` would rebuild both each time.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
venv="$root/target/pkg-venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q maturin pytest
# the build backend runs `maturin` from PATH
PATH="$venv/bin:$PATH" CARGO_TARGET_DIR="$root/target/pkg" MATURIN_PEP517_ARGS="--profile dev" \
    "$venv/bin/pip" install -q --no-build-isolation "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp pyext/tests/test_package.py "$work/"
cd "$work"
# the marker runs test_marker on llinterp and c
"$venv/bin/python" -m pytest -v -p no:cacheprovider test_package.py | tee "$work/out.txt"
for id in "test_marker[llinterp] PASSED" "test_marker[c] PASSED"; do
    grep -qF "$id" "$work/out.txt" || { echo "test_package.sh: no '$id'" >&2; exit 1; }
done
# --rpy3-backends replaces the marker's list
"$venv/bin/python" -m pytest -v -p no:cacheprovider --rpy3-backends=flow,native \
    test_package.py -k test_marker | tee "$work/out.txt"
for id in "test_marker[flow] PASSED" "test_marker[native] PASSED"; do
    grep -qF "$id" "$work/out.txt" || { echo "test_package.sh: no '$id'" >&2; exit 1; }
done
if grep -qF "test_marker[c]" "$work/out.txt"; then
    echo "test_package.sh: --rpy3-backends did not replace the marker's backends" >&2
    exit 1
fi
