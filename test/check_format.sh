#!/usr/bin/env bash
# Checks that C++ and CUDA sources follow the tree's .clang-format: `clang-format-19 --dry-run
# -Werror` on each. Exits 77 (skipped) when clang-format-19 is not installed (tools/install-deps
# installs it).
#   check_format.sh generated  the generated sources of every golden project (test/golden/*/*/:
#                              the app, rank, GPU and main files, not the actors' copies)
#   check_format.sh sources    dfgc's own sources: compiler/, runtime/, bench/ and the tests'
#                              C++ (test/unit, test/fuzz, test/package, test/hosts). Spec and
#                              actor inputs whose line numbers goldens name (test/errors,
#                              samples) and the fragments of templates/ are not checked.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-generated}
format=$(command -v clang-format-19 || true)
if [[ -z $format ]]; then
  echo "clang-format-19 not found: skipped"
  exit 77
fi
sources=(-type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \))
case $mode in
  generated) list() { find "$root/test/golden" -mindepth 3 -maxdepth 3 "${sources[@]}" -print0; } ;;
  sources)
    list() {
      find "$root/compiler" "$root/runtime" "$root/bench" "$root/test/unit" "$root/test/fuzz" \
        "$root/test/package" "$root/test/hosts" "${sources[@]}" -print0
    }
    ;;
  *) echo "usage: check_format.sh generated|sources" >&2; exit 2 ;;
esac
count=0
failed=0
while IFS= read -r -d '' file; do
  count=$((count + 1))
  "$format" --style="file:$root/.clang-format" --dry-run -Werror "$file" || failed=$((failed + 1))
done < <(list | sort -z)
((count > 0)) || { echo "no $mode source found"; exit 1; }
if ((failed)); then
  echo "$failed of $count $mode files do not follow .clang-format"
  exit 1
fi
echo "$count $mode files follow .clang-format"
