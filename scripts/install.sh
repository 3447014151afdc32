#!/usr/bin/env bash
# Installs the `livescan` built in BIN_DIR as PREFIX/bin/livescan and the learned models of models/ (fetched by
# `make setup`: the networks, their character list and the ONNX Runtime library that runs them) with their README
# in PREFIX/share/livescan/models, where the binary finds them beside it and, for PREFIX /usr/local, /usr or
# ~/.local, every program using the library does (ModelFiles.searchedFolders). Run by `make install`; a relative
# PREFIX is taken from the current folder.
set -euo pipefail

usage="usage: scripts/install.sh BIN_DIR PREFIX"
bin_dir=${1:?$usage}
prefix=${2:?$usage}
repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

[[ -x "$bin_dir/livescan" ]] || { echo "Error: $bin_dir/livescan is not built (make build)" >&2; exit 1; }
shopt -s nullglob
models=("$repository"/models/*.onnx "$repository"/models/*.txt "$repository"/models/libonnxruntime.so.*)
[[ ${#models[@]} -gt 0 ]] || { echo "Error: $repository/models holds no models: run make setup first" >&2; exit 1; }

# install(1) copies what a link in models/ points to (the files themselves, never the links).
install -D -m 755 "$bin_dir/livescan" "$prefix/bin/livescan"
install -d "$prefix/share/livescan/models"
install -m 644 "${models[@]}" "$repository/models/README.md" "$prefix/share/livescan/models/"
echo "installed $prefix/bin/livescan, and ${#models[@]} model files in $prefix/share/livescan/models"
