#!/usr/bin/env bash
# Formats LiveScan's C and C++ (CBridge/, SceneRender/, Fuzz/, CLiveViewServer/) with clang-format and the
# repository's .clang-format, in place; with --check, changes nothing and fails naming the files that are not formatted.
#
#   scripts/format.sh [--check] [FILE...]     (default: every C/C++ file of those folders git knows or would add)
#
# clang-format is a developer tool, not a build dependency: `make setup` does not install it. When it is missing,
# this installs Debian's package through scripts/setup.sh (as fuzz.sh installs clang); CLANG_FORMAT names
# another binary. .clang-format was tuned with Debian 12's clang-format 14; other versions break some lines
# differently, so this says when it runs another.
set -euo pipefail

check=false
if [[ "${1:-}" == "--check" ]]; then
    check=true
    shift
fi
case "${1:-}" in
-*)
    echo "Error: unknown option '$1'" >&2
    echo "Usage: scripts/format.sh [--check] [FILE...]" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" >/dev/null; then
    if [[ -n "${CLANG_FORMAT:-}" ]]; then
        echo "Error: CLANG_FORMAT=$CLANG_FORMAT is not a command" >&2
        exit 1
    fi
    bash scripts/setup.sh clang-format || {
        echo "Error: formatting needs clang-format (Debian 12: apt-get install clang-format, version 14)" >&2
        exit 1
    }
fi
version=$("$clang_format" --version)
if [[ "$version" != *" version 14."* ]]; then
    echo "format: $version is not the clang-format 14 .clang-format was tuned with; some lines may break differently" >&2
fi

if [[ $# -gt 0 ]]; then
    files=("$@")
else
    # Tracked files and new ones not yet added (but not ignored ones such as .build/).
    mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
        'CBridge/*.cpp' 'CBridge/*.hpp' 'CBridge/*.h' 'SceneRender/*.cpp' 'SceneRender/*.hpp' 'SceneRender/*.h' \
        'Fuzz/*.cpp' 'Fuzz/*.hpp' 'Fuzz/*.h' 'CLiveViewServer/*.c' 'CLiveViewServer/*.h' | sort -u)
fi

if ! $check; then
    "$clang_format" -i --style=file "${files[@]}"
    echo "format: ${#files[@]} files formatted"
    exit 0
fi
unformatted=()
for file in "${files[@]}"; do
    "$clang_format" --dry-run --Werror --style=file "$file" 2>/dev/null || unformatted+=("$file")
done
if [[ ${#unformatted[@]} -gt 0 ]]; then
    echo "Error: ${#unformatted[@]} of ${#files[@]} files are not formatted (make format formats them):" >&2
    printf '  %s\n' "${unformatted[@]}" >&2
    exit 1
fi
echo "format: ${#files[@]} files formatted as .clang-format says"
