#!/bin/bash
# A dfgc that runs on a machine without Clang 19 (the lent GPU machines), as one file:
#
#     bench/bundle_dfgc.sh OUT.tar.xz [DFGC]      # DFGC: build/release/bin/dfgc by default
#
# The archive holds dfgc, every shared library it loads (ICU's data but a stand-in, below) (the C library and its loader too, so
# that the target's own C library does not matter), and Clang's resource headers. Unpacked in a
# directory D, D/dfgc runs dfgc. Clang's resource directory is compiled into dfgc
# (DFGC_CLANG_RESOURCE_DIR); where the target lacks it, D/dfgc puts the bundled headers there
# (it needs to run as root then). The target still needs a C++ standard library's headers (g++'s),
# which dfgc's Clang finds as it does here.
set -euo pipefail
out=${1:?usage: bundle_dfgc.sh OUT.tar.xz [DFGC]}
root=$(cd "$(dirname "$0")/.." && pwd)
dfgc=${2:-$root/build/release/bin/dfgc}
resource=$(strings "$dfgc" | grep -E '^/usr/lib/llvm-[0-9]+/lib/clang/[0-9]+$' | sort -u)
if [ "$(wc -l <<<"$resource")" != 1 ] || [ ! -d "$resource/include" ]; then
  echo "bundle_dfgc.sh: no one Clang resource directory named in $dfgc: '$resource'" >&2
  exit 1
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/dfgc/bin" "$stage/dfgc/lib" "$stage/dfgc/resource"
cp "$dfgc" "$stage/dfgc/bin/dfgc"
ldd "$dfgc" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }' | while read -r lib; do
  cp -L "$lib" "$stage/dfgc/lib/"
done
# ICU's data (30 MiB, of which 7 compressed) is read only by libxml2's encoding conversions, which
# LLVM loads it for and dfgc never makes: a library of its one symbol stands in, which keeps the
# archive with a source tree under the 64 MiB that the device tool carries.
for data in "$stage"/dfgc/lib/libicudata.so.*; do
  [ -e "$data" ] || continue
  symbol=$(nm -D --defined-only "$data" | awk '$3 ~ /^icudt[0-9]+_dat$/ { print $3 }')
  echo "const char ${symbol}[16] = {0};" |
    cc -shared -x c - -o "$data" -Wl,-soname,"$(basename "$data")"
done
cp -r "$resource/include" "$stage/dfgc/resource/"
echo "$resource" >"$stage/dfgc/resource/path"
cat >"$stage/dfgc/dfgc" <<'WRAP'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
resource=$(cat "$here/resource/path")
if [ ! -d "$resource/include" ]; then
  mkdir -p "$resource" && cp -r "$here/resource/include" "$resource/" || exit 1
fi
exec "$here/lib/$(ls "$here/lib" | grep -m1 '^ld-linux')" --library-path "$here/lib" "$here/bin/dfgc" "$@"
WRAP
chmod +x "$stage/dfgc/dfgc"
tar -C "$stage" -cf - dfgc | xz -T0 -6 >"$out"
echo "$out: $(du -h "$out" | cut -f1) ($resource)"
