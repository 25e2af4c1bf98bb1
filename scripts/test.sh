#!/usr/bin/env bash
# Runs every test: the Rust workspace, the pure-Python rlib tests, the
# installed Python package (scripts/test_package.sh), and the corpus
# ratchet (no case listed in ratchet/passing.txt may stop passing).
set -euo pipefail
cd "$(dirname "$0")/.."
# The shared corpus lives beside the checkout (../shared), or where
# RPY3_SHARED says.
if [ -z "${RPY3_SHARED:-}" ] && [ -d "$(pwd)/../shared/corpus" ]; then
    RPY3_SHARED="$(cd "$(pwd)/../shared" && pwd)"
fi
if [ -z "${RPY3_SHARED:-}" ] || [ ! -d "$RPY3_SHARED/corpus" ]; then
    echo "the shared corpus was not found beside the checkout (../shared; or set RPY3_SHARED)" >&2
    exit 1
fi
export RPY3_SHARED
corpus="$RPY3_SHARED/corpus"
cargo build --workspace
# (includes cli/tests/view.rs, the graph viewer in headless Chromium,
# which fails when no chromium is installed; .ci/run installs it)
cargo test --workspace
python3 -m unittest discover -s python/tests
# the package in a fresh venv, as a new user installs and tests with it
./scripts/test_package.sh
mkdir -p target
for backend in flow annotate llinterp c c-gcstress native native-gcstress; do
    # A failing case makes `check` exit non-zero; the ratchet decides.
    ./target/debug/rpy3 check "$corpus" --backend "$backend" --json "target/corpus-$backend.json" \
        | tail -n 1 || true
    # the project's own cases (same format)
    ./target/debug/rpy3 check testsuite/cases --backend "$backend" --json "target/cases-$backend.json" \
        | tail -n 1 || true
done
# whole programs: stdout and exit status against CPython's (the annotate
# backend's value-by-value checks are left to the cases: too slow here)
for backend in flow llinterp c c-gcstress native native-gcstress; do
    ./target/debug/rpy3 check testsuite/programs --backend "$backend" --json "target/programs-$backend.json" \
        | tail -n 1 || true
done
# the C backend under AddressSanitizer and UndefinedBehaviorSanitizer: a
# subset of the corpus (every case must pass, none may trip a sanitizer)
RPY3_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    ASAN_OPTIONS=detect_leaks=0 \
    ./target/debug/rpy3 check "$corpus/str.py" "$corpus/list.py" "$corpus/dict.py" \
        "$corpus/classes.py" "$corpus/exceptions.py" "$corpus/float.py" "$corpus/int.py" \
        --backend c | tail -n 1
shopt -s nullglob
python3 scripts/ratchet.py check target/corpus-*.json target/cases-*.json target/programs-*.json
