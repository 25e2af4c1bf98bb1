#!/usr/bin/env bash
# Runs every test: the Rust workspace, the pure-Python rlib tests, and the
# corpus ratchet (no case listed in ratchet/passing.txt may stop passing).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${RPY3_CORPUS:-$(pwd)/../shared/corpus}"
if [ ! -d "$corpus" ]; then
    echo "corpus not found at $corpus (set RPY3_CORPUS)" >&2
    exit 1
fi
cargo build --workspace
cargo test --workspace
python3 -m unittest discover -s python/tests
mkdir -p target
for backend in flow; do
    # A failing case makes `check` exit non-zero; the ratchet decides.
    ./target/debug/rpy3 check "$corpus" --backend "$backend" --json "target/corpus-$backend.json" \
        | tail -n 1 || true
done
python3 scripts/ratchet.py check target/corpus-*.json
