#!/usr/bin/env bash
# Builds the fuzz targets the way OSS-Fuzz and ClusterFuzzLite expect, so tapefuzz targets run
# on those services unchanged. Call it from the project's build.sh (OSS-Fuzz's Rust base image
# sets $OUT, $SANITIZER and the compiler flags; ClusterFuzzLite does the same):
#
#   bash scripts/oss-fuzz-build.sh            # in projects/<name>/build.sh or .clusterfuzzlite/build.sh
#
# For each fuzz target: `cargo fuzz build -O` (with the sanitizer OSS-Fuzz asks for, none when
# it asks for none or when run by hand), the binary copied to $OUT, and a seed corpus
# $OUT/<target>_seed_corpus.zip from corpora/<target>/corpus (harness targets) or
# fuzz/corpus/<target> (decoder targets). The derive(Arbitrary) peers are benchmark baselines
# and are skipped. Locally: OUT=/tmp/out scripts/oss-fuzz-build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
OUT="${OUT:?set OUT to the output folder (OSS-Fuzz sets it)}"
mkdir -p "$OUT"

case "${SANITIZER:-none}" in
    address) SAN=(--sanitizer address) ;;
    memory) SAN=(--sanitizer memory) ;;
    undefined | coverage | none | "") SAN=(--sanitizer none) ;;
    *) SAN=(--sanitizer "$SANITIZER") ;;
esac
TOOLCHAIN=()
[ "${SAN[1]}" != none ] && TOOLCHAIN=(+nightly)

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
export RUSTC_WRAPPER="$ROOT/scripts/fuzz-rustc"
# Cargo does not fingerprint the wrapper: this flag (which nothing reads) keeps these builds
# apart from plain `cargo fuzz build` ones, which would otherwise be reused as they are.
export RUSTFLAGS="${RUSTFLAGS:-} --cfg tapefuzz_fuzz_rustc"
cargo "${TOOLCHAIN[@]}" fuzz build -O "${SAN[@]}"
BIN="target/x86_64-unknown-linux-gnu/release"
for t in $(cargo fuzz list); do
    case "$t" in peer_*) continue ;; esac
    cp "$BIN/$t" "$OUT/$t"
    if [ -d "corpora/$t/corpus" ]; then seeds="corpora/$t/corpus"; else seeds="fuzz/corpus/$t"; fi
    if [ -d "$seeds" ] && [ -n "$(ls -A "$seeds" 2>/dev/null)" ]; then
        (cd "$seeds" && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*)
    fi
    echo "built $OUT/$t" >&2
done
