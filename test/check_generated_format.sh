#!/usr/bin/env bash
# Checks that the generated C++ and CUDA sources of every golden project (test/golden/*/*/: the
# app, rank, GPU and main files, not the runtime's or the actors' copies) follow the tree's
# .clang-format: `clang-format-19 --dry-run -Werror` on each. Exits 77 (skipped) when
# clang-format-19 is not installed (tools/install-deps installs it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
format=$(command -v clang-format-19 || true)
if [[ -z $format ]]; then
  echo "clang-format-19 not found: skipped"
  exit 77
fi
count=0
failed=0
while IFS= read -r -d '' file; do
  count=$((count + 1))
  "$format" --style="file:$root/.clang-format" --dry-run -Werror "$file" || failed=$((failed + 1))
done < <(find "$root/test/golden" -mindepth 3 -maxdepth 3 -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \) -print0 | sort -z)
((count > 0)) || { echo "no generated source under test/golden"; exit 1; }
if ((failed)); then
  echo "$failed of $count generated sources do not follow .clang-format"
  exit 1
fi
echo "$count generated sources follow .clang-format"
