#!/usr/bin/env bash
# bench/replicas/generate.sh DFGC OUT: the projects bench/replicas/run.sh builds and runs.
set -euo pipefail
dfgc=$1 out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
"$dfgc" compile "$root/samples/saliency/cpu_only.dfg" -o "$out/saliency_core"
"$dfgc" compile "$root/samples/saliency/cores_replicas.dfg" -o "$out/saliency_cores"
"$dfgc" compile "$root/samples/saliency/one_gpu.dfg" -o "$out/saliency_gpu"
"$dfgc" compile "$root/samples/saliency/two_gpus_replicas.dfg" -o "$out/saliency_gpus"
