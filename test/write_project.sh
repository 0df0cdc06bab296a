#!/usr/bin/env bash
# How 'dfgc compile -o' writes its directory and how every command writes stdout (ctest runs each
# case as its own test):
#   write_project.sh DFGC ROOT WORK CASE
# CASE:
#   kill        samples/overlap/one_gpu.dfg compiled over cpu_only.dfg's project (which holds a
#               user's build/ directory) and SIGKILLed 9 times: at a random moment, a few ms
#               after it starts writing (a new entry in the directory), or as soon as its journal
#               is committed. The project is always the old one or the new one, or a committed
#               journal waits in its staging directory; the next compile writes the project
#               complete, keeps build/ and leaves no temporary. Then 3 kills of a compile into a
#               new directory: it is absent or complete, and the next compile leaves no
#               temporary beside it
#   manifest    an absolute path, '/nonexistent/x' or '../' added to dfgc-manifest.txt: the next
#               compile stops at once with the manifest's line, and the file outside is untouched
#   empty_dirs  an existing empty directory (as a mount point) and a symlink to one are written
#               into: the same directory, the symlink kept
#   stdout      dump-ast, dump-ir, schedule, map and --help into /dev/full: exit status 1 and
#               "cannot write to standard output"
#   depfile     --depfile of a FIFO, of the spec, of the output directory, of a file inside it
#               and in a missing directory: exit status 1 with the reason, the project not
#               written and the file as it was; a symlink is written through and kept
#   memory      allocations refused (ASan's max_allocation_size_mb; skipped in other builds): exit
#               status 2 and "out of memory", a new directory not written, an old one whole
#   special     a manifest that is a FIFO or a symlink to /dev/zero (a file that would block
#               the compile or never end): compile refuses the directory at once, nothing
#               written
set -euo pipefail
dfgc=$1 root=$2 work=$3 case=$4
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
work="$work/$case"
rm -rf "$work"
mkdir -p "$work"
cd "$root"

fail() { echo "FAIL ($case): $*" >&2; exit 1; }
compile() { "$dfgc" compile "$1" -o "$2"; }
# Whether directory $2 holds exactly the project $1 (its build/ and staging directories aside).
same() { diff -rq --exclude=build --exclude='.dfgc-staging-*' "$1" "$2" >/dev/null 2>&1; }
temporaries() { find "$@" -maxdepth 2 \( -name '*dfgc-tmp*' -o -name '.dfgc-staging-*' \) 2>/dev/null; }

old=samples/overlap/cpu_only.dfg new=samples/overlap/one_gpu.dfg

case $case in
  kill)
    # The reference projects, at the same depth as the one written (the actor paths are relative).
    compile $old "$work/old/gen"
    start=$(date +%s%N)
    compile $new "$work/new/gen"
    ms=$((($(date +%s%N) - start) / 1000000))
    counts=(0 0 0)
    shopt -s dotglob nullglob
    for trial in $(seq 9); do
      rm -rf "$work/t" && mkdir -p "$work/t" && cp -a "$work/old/gen" "$work/t/gen"
      mkdir "$work/t/gen/build" && echo mine >"$work/t/gen/build/keep"
      entries=("$work/t/gen"/*)
      before=${#entries[@]}
      "$dfgc" compile $new -o "$work/t/gen" 2>/dev/null &
      pid=$!
      if ((trial % 3 == 1)); then
        delay=$((RANDOM % (ms + 1)))
        sleep "$((delay / 1000)).$(printf %03d $((delay % 1000)))"
      elif ((trial % 3 == 2)); then
        # Until the write starts: a new entry in the directory.
        while kill -0 $pid 2>/dev/null; do
          entries=("$work/t/gen"/*)
          ((${#entries[@]} == before)) || break
        done
        sleep "$(printf 0.%03d $((RANDOM % 40)))"
      else
        # As soon as the journal is committed: while the files move.
        while kill -0 $pid 2>/dev/null && ! compgen -G "$work/t/gen/.dfgc-staging-*/journal" >/dev/null; do :; done
      fi
      kill -9 $pid 2>/dev/null || true
      wait $pid 2>/dev/null || true
      if same "$work/old/gen" "$work/t/gen"; then
        counts[0]=$((counts[0] + 1))
      elif same "$work/new/gen" "$work/t/gen"; then
        counts[1]=$((counts[1] + 1))
      else
        compgen -G "$work/t/gen/.dfgc-staging-*/journal" >/dev/null ||
          fail "trial $trial: a mixed project without a journal"
        counts[2]=$((counts[2] + 1))
      fi
      [[ -z $(find "$work/t" -name '*dfgc-tmp*') ]] || fail "trial $trial: a temporary file"
      compile $old "$work/t/gen" || fail "trial $trial: the next compile failed"
      same "$work/old/gen" "$work/t/gen" || fail "trial $trial: the next compile's project differs"
      [[ -z $(temporaries "$work/t") ]] || fail "trial $trial: a temporary after the next compile"
      [[ $(cat "$work/t/gen/build/keep") == mine ]] || fail "trial $trial: build/ not kept"
    done
    echo "over a project: ${counts[0]} old, ${counts[1]} new, ${counts[2]} mid-write with a journal"
    for trial in $(seq 3); do
      rm -rf "$work/t" && mkdir -p "$work/t"
      "$dfgc" compile $new -o "$work/t/gen" 2>/dev/null &
      pid=$!
      while kill -0 $pid 2>/dev/null && ! compgen -G "$work/t/gen.dfgc-tmp-*" >/dev/null; do :; done
      sleep "0.00$((RANDOM % 10))"
      kill -9 $pid 2>/dev/null || true
      wait $pid 2>/dev/null || true
      [[ ! -e $work/t/gen ]] || same "$work/new/gen" "$work/t/gen" || fail "fresh $trial: a partial project"
      compile $new "$work/t/gen" || fail "fresh $trial: the next compile failed"
      same "$work/new/gen" "$work/t/gen" || fail "fresh $trial: the next compile's project differs"
      [[ -z $(temporaries "$work/t") ]] || fail "fresh $trial: a temporary after the next compile"
    done
    ;;
  manifest)
    mkdir -p "$work/v/sub" && echo mine >"$work/v/sub/f"
    compile $old "$work/g"
    cp "$work/g/dfgc-manifest.txt" "$work/manifest"
    line=$(($(wc -l <"$work/manifest") + 1))
    for bad in "$work/v/sub/f" /nonexistent/x ../v/sub/f; do
      { cat "$work/manifest"; echo "$bad"; } >"$work/g/dfgc-manifest.txt"
      status=0
      timeout 20 "$dfgc" compile $new -o "$work/g" 2>"$work/err.txt" || status=$?
      [[ $status == 1 ]] || fail "'$bad': exit $status"
      grep -qF "dfgc-manifest.txt:$line: '$bad'" "$work/err.txt" || fail "'$bad': message: $(cat "$work/err.txt")"
      [[ $(cat "$work/v/sub/f") == mine ]] || fail "'$bad': the file outside was touched"
      [[ -e $work/g/rank_A.cpp && ! -e $work/g/rank_A_g0.cu ]] || fail "'$bad': the project was changed"
    done
    ;;
  empty_dirs)
    mkdir "$work/mount"
    inode=$(stat -c %i "$work/mount")
    compile $old "$work/mount"
    [[ $(stat -c %i "$work/mount") == "$inode" && -e $work/mount/dfgc-manifest.txt ]] ||
      fail "the empty directory was not written into"
    mkdir "$work/target" && ln -s target "$work/link"
    compile $old "$work/link"
    [[ -L $work/link && -e $work/target/dfgc-manifest.txt ]] || fail "the symlink was replaced"
    compile $new "$work/link"
    [[ -L $work/link && -e $work/target/rank_A_g0.cu ]] || fail "the symlink was replaced"
    [[ -z $(temporaries "$work") ]] || fail "a temporary was left"
    ;;
  stdout)
    for command in "dump-ast $old" "dump-ir $old" "schedule $old" "schedule $old --emit=dot" "--help" \
      "map samples/overlap/two_hosts.dfg --costs samples/overlap/two_hosts.costs.json" "map --help"; do
      status=0
      # shellcheck disable=SC2086
      "$dfgc" $command >/dev/full 2>"$work/err.txt" || status=$?
      [[ $status == 1 ]] || fail "'dfgc $command >/dev/full': exit $status"
      grep -q "cannot write to standard output" "$work/err.txt" || fail "'dfgc $command': no message"
    done
    ;;
  depfile)
    cp -r samples/overlap "$work/app"
    spec=$work/app/cpu_only.dfg
    cp "$spec" "$work/spec.orig"
    mkfifo "$work/fifo"
    refused() {  # DEPFILE OUT REASON
      status=0
      timeout 60 "$dfgc" compile "$spec" -o "$2" --depfile "$1" 2>"$work/err.txt" || status=$?
      [[ $status == 1 ]] || fail "--depfile $1: exit $status"
      grep -qF "cannot write depfile '$1': $3" "$work/err.txt" ||
        fail "--depfile $1: message: $(cat "$work/err.txt")"
      [[ ! -e $2 ]] || fail "--depfile $1: the project was written"
      cmp -s "$spec" "$work/spec.orig" || fail "--depfile $1: the spec changed"
      [[ -z $(temporaries "$work") ]] || fail "--depfile $1: a temporary was left"
    }
    refused "$work/fifo" "$work/g" "a FIFO, not a regular file"
    [[ -p $work/fifo ]] || fail "the FIFO was replaced"
    refused "$spec" "$work/g" "it is '$spec', a file the compile reads"
    refused "$work/app/actors/producer.hpp" "$work/g" "it is '$work/app/actors/producer.hpp', a file the compile reads"
    refused "$work/g" "$work/g" "it is the output directory"
    refused "$work/g/app.d" "$work/g" "it is inside the output directory"
    refused "$work/nodir/app.d" "$work/g" "its directory '$work/nodir' does not exist"
    echo old >"$work/real.d" && ln -s real.d "$work/link.d"
    "$dfgc" compile "$spec" -o "$work/g" --depfile "$work/link.d" || fail "--depfile through a symlink"
    [[ -L $work/link.d ]] || fail "the symlink was replaced"
    grep -qF "$work/g/dfgc-manifest.txt:" "$work/real.d" || fail "the symlink's file was not written"
    grep -qF "$spec" "$work/real.d" || fail "the depfile does not list the spec"
    ;;
  special)
    for manifest in fifo zero; do
      rm -rf "$work/g" && mkdir "$work/g"
      if [[ $manifest == fifo ]]; then mkfifo "$work/g/dfgc-manifest.txt"; else ln -s /dev/zero "$work/g/dfgc-manifest.txt"; fi
      status=0
      timeout 60 "$dfgc" compile $old -o "$work/g" 2>"$work/err.txt" || status=$?
      [[ $status == 1 ]] || fail "a manifest that is a $manifest: exit $status"
      grep -q "refusing to write into" "$work/err.txt" || fail "manifest $manifest: $(cat "$work/err.txt")"
      [[ $(ls -A "$work/g") == dfgc-manifest.txt ]] || fail "manifest $manifest: something written"
    done
    ;;
  memory)
    # Every allocation over 1 MiB fails (ASan's allocator returns null, as malloc does when
    # memory runs out): dfgc says so and exits 2, with no project written, and over an old
    # project the old one stays whole.
    nm "$dfgc" 2>/dev/null | grep ' __asan_init$' >/dev/null || { echo "skipped: not an ASan build"; exit 77; }
    limited="detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=1"
    for into in new old; do
      rm -rf "$work/p"
      [[ $into == new ]] || compile $old "$work/p" 2>/dev/null
      [[ $into == new ]] || cp -r "$work/p" "$work/before"
      status=0
      ASAN_OPTIONS=$limited "$dfgc" compile $new -o "$work/p" 2>"$work/err.txt" || status=$?
      [[ $status == 2 ]] || fail "out of memory into a $into directory: exit $status: $(cat "$work/err.txt")"
      grep -q "^dfgc: error: out of memory" "$work/err.txt" || fail "no message: $(cat "$work/err.txt")"
      if [[ $into == new ]]; then
        [[ ! -e "$work/p" ]] || fail "a new directory was written: $(ls -A "$work/p")"
      else
        same "$work/before" "$work/p" || fail "the old project changed"
      fi
    done
    ;;
  *) fail "unknown case '$case'" ;;
esac
echo "ok: $case"
