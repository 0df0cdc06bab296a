#!/usr/bin/env bash
# The example project of test/package built against an installed dfgc (ctest runs each case as
# its own test):
#   run.sh BUILD ROOT WORK CASE
# BUILD is dfgc's build tree, ROOT its source tree. CASE:
#   install  `cmake --install BUILD --prefix WORK/prefix`: the layout (bin/dfgc, include/dfg,
#            the CMake package); the example configured, built and run against it (the sink's
#            total proves the spec, its -D define and both actors made the program; free, mapped
#            by dfgc map from COSTS for the latency as DFGC_ARGS ask, runs the same). Then the
#            rebuilds: a second build runs neither dfgc nor the compiler; touching an actor's
#            header reruns dfgc but recompiles nothing (the project's copy of the header is
#            unchanged); editing the costs file reruns dfgc map; a new value in that header
#            (which recompiles), in the spec, and a new DEFINES value each change what the
#            program prints; dfgc's depfile lists the spec, both actor headers, the header they
#            include and the installed runtime header, no system header; map's lists the costs.
#            Then samples/receiver's CMakeLists.txt configured, built and run against the prefix
#   deb      `cpack -G DEB` in BUILD: the package's files (dpkg-deb -c), its Depends naming the
#            package of every shared library dfgc needs; then the package unpacked
#            (dpkg-deb -x, no root needed) and the example built and run against it
set -euo pipefail
build=$1 root=$2 work=$3 case=$4
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
work="$work/$case"
rm -rf "$work"
mkdir -p "$work"

fail() { echo "FAIL ($case): $*" >&2; exit 1; }
# The example is copied: the rebuild checks edit it.
cp -r "$root/test/package" "$work/src"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
configure() {  # configure PREFIX [cmake args...]
  local prefix=$1
  shift
  cmake -S "$work/src" -B "$work/example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" "$@" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configuring the example against $prefix"; }
}
build() {  # build LOG: builds the example, its output in LOG
  cmake --build "$work/example" -j 2 >"$work/$1" 2>&1 || { cat "$work/$1"; fail "building the example ($1)"; }
}
# run_and_expect SCALE STEP N [APP]: the program's output (scaled's, or APP's) for 10 iterations,
# checked against the sum of SCALE * (i + STEP) over i < 10, N elements a token.
run_and_expect() {
  local scale=$1 step=$2 n=$3 app=${4:-scaled}
  local out total
  out=$("$work/example/$app/build/app" --iterations 10) || fail "the program failed: $out"
  total=$((n * scale * (45 + 10 * step)))
  grep -qx "sink: scale $scale, step $step" <<<"$out" || fail "expected scale $scale, step $step in: $out"
  grep -qx "sink: 10 tokens, total $total" <<<"$out" || fail "expected total $total in: $out"
}
ran_dfgc() { grep -q "dfgc: compiling scaled.dfg" "$work/$1"; }
compiled() { grep -q "Building CXX object" "$work/$1"; }

case $case in
  install)
    prefix="$work/prefix"
    cmake --install "$build" --prefix "$prefix" >/dev/null
    [ -x "$prefix/bin/dfgc" ] || fail "no bin/dfgc"
    [ -f "$prefix/include/dfg/context.hpp" ] || fail "no include/dfg/context.hpp"
    config=$(find "$prefix" -name dfgcConfig.cmake)
    [ -n "$config" ] || fail "no dfgcConfig.cmake"
    for f in dfgcConfigVersion.cmake dfgcTargets.cmake DfgcAddApplication.cmake; do
      [ -f "$(dirname "$config")/$f" ] || fail "no $f beside dfgcConfig.cmake"
    done
    [ -z "$(find "$prefix" -path '*templates*')" ] || fail "templates installed (they are compiled into dfgc)"

    configure "$prefix"
    build first.log
    ran_dfgc first.log || fail "the first build did not run dfgc"
    run_and_expect 3 1 256
    # free: dfgc map chose the sink's core from COSTS for the latency (DFGC_ARGS), both on A.c0.
    grep -q "node dst : Sink @ A.c0" "$work/first.log" ||
      fail "dfgc map did not put the sink beside the source for the latency: $(cat "$work/first.log")"
    run_and_expect 3 1 256 free
    grep -qF " $work/src/costs.json" "$work/example/free/dfgc.d" ||
      fail "the map depfile does not list the costs file: $(cat "$work/example/free/dfgc.d")"

    depfile="$work/example/scaled/dfgc.d"
    for f in "$work/src/scaled.dfg" "$work/src/actors/source.hpp" "$work/src/actors/sink.hpp" \
             "$work/src/actors/step.hpp" "$prefix/include/dfg/context.hpp"; do
      grep -qF " $f" "$depfile" || fail "the depfile does not list $f: $(cat "$depfile")"
    done
    grep -q "^$work/example/scaled/project/dfgc-manifest.txt:" "$depfile" ||
      fail "the depfile's target is not the manifest: $(head -1 "$depfile")"
    ! grep -qE " /usr/(include|lib)/" "$depfile" || fail "the depfile lists system headers: $(cat "$depfile")"

    build again.log
    ! ran_dfgc again.log || fail "a build with nothing changed ran dfgc"
    ! compiled again.log || fail "a build with nothing changed compiled: $(cat "$work/again.log")"

    sleep 1  # a coarse file system clock
    touch "$work/src/actors/step.hpp"
    build touched.log
    ran_dfgc touched.log || fail "touching an actor's header did not rerun dfgc"
    # The project holds a copy of the header, rewritten only when its text changes.
    ! compiled touched.log || fail "touching an actor's header, its text unchanged, recompiled the program"

    sleep 1
    sed -i 's/kStep = 1;/kStep = 2;/' "$work/src/actors/step.hpp"
    build step.log
    compiled step.log || fail "a new value in an actor's header did not recompile the program"
    run_and_expect 3 2 256

    sleep 1
    sed -i 's/"cpu": 0.003/"cpu": 0.004/' "$work/src/costs.json"
    build costs.log
    grep -q "dfgc: compiling free.dfg" "$work/costs.log" || fail "editing the costs did not rerun dfgc map"

    sleep 1
    sed -i 's/^param N = 256;/param N = 128;/' "$work/src/scaled.dfg"
    build spec.log
    ran_dfgc spec.log || fail "editing the spec did not rerun dfgc"
    run_and_expect 3 2 128

    configure "$prefix" -DSCALE=5
    build define.log
    run_and_expect 5 2 128

    # samples/receiver's own project against the same prefix: its mapping on four cores.
    if ! { cmake -S "$root/samples/receiver" -B "$work/receiver" -G Ninja \
             -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" &&
           cmake --build "$work/receiver" -j 2; } >"$work/receiver.log" 2>&1; then
      cat "$work/receiver.log"
      fail "building samples/receiver against $prefix"
    fi
    out=$("$work/receiver/receiver/build/app" --iterations 300) || fail "the receiver failed: $out"
    grep -qx "receiver: 300 iterations, .* every burst as planted" <<<"$out" ||
      fail "the receiver's report: $(tail -3 <<<"$out")"
    ;;

  deb)
    (cd "$build" && cpack -G DEB -B "$work/deb" >"$work/cpack.log" 2>&1) ||
      { cat "$work/cpack.log"; fail "cpack -G DEB"; }
    deb=$(find "$work/deb" -maxdepth 1 -name 'dfgc_*.deb')
    [ -n "$deb" ] || fail "no dfgc_*.deb in $work/deb"
    contents=$(dpkg-deb -c "$deb")
    for f in ./usr/bin/dfgc ./usr/include/dfg/context.hpp ./usr/include/dfg/cuda/ \
             /cmake/dfgc/dfgcConfig.cmake /cmake/dfgc/dfgcTargets.cmake \
             /cmake/dfgc/DfgcAddApplication.cmake; do
      grep -qF "$f" <<<"$contents" || fail "the package has no $f: $contents"
    done
    depends=$(dpkg-deb -f "$deb" Depends)
    dpkg-deb -x "$deb" "$work/root"
    # Every shared library dfgc needs comes from a package the Depends field names. (No pipeline
    # here ends before its input does: with pipefail, a writer killed by SIGPIPE fails it.)
    for lib in $(objdump -p "$work/root/usr/bin/dfgc" | awk '/NEEDED/ {print $2}'); do
      path=$(ldconfig -p | awk -v l="$lib" '$1 == l && !found {print $NF; found = 1}')
      [ -n "$path" ] || fail "$lib, which dfgc needs, is not installed here"
      # dpkg knows the file under the path its package gave: /lib or /usr/lib (merged /usr).
      package=$( (dpkg -S "$(readlink -f "$path")" || dpkg -S "$path") 2>/dev/null |
                 awk -F: 'NR == 1 {print $1}')
      [ -n "$package" ] || fail "no package has $path"
      # Depends: "a, b (>= 1), c | d": one package name a line.
      sed 's/[,|]/\n/g' <<<"$depends" | awk '{print $1}' | grep -xF "$package" >/dev/null ||
        fail "dfgc needs $lib ($package), not in Depends: $depends"
    done
    grep -q "libclang-common-" <<<"$depends" || fail "Depends lacks Clang's builtin headers: $depends"

    configure "$work/root/usr"
    build first.log
    run_and_expect 3 1 256
    ;;
  *) fail "unknown case" ;;
esac
echo "ok ($case)"
