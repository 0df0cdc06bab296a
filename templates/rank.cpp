$header$
// Host $host$: $what$
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include "$app_header$"
#include "dfg/items.hpp"
#include "dfg/node.hpp"
#include "dfg/run_tables.hpp"
$runtime_includes$

$actor_includes$
$struct_checks$
namespace $ns$ {

Run::Run(const dfg::Options& options)
    : RunState(options, {params_of, overlap::kEntries, no_overlap::kEntries, overlap::kLatency, no_overlap::kLatency,
                         overlap::neighbours(), kTrackNames, kPeNames, kPeKinds, &kCheckpoint$alternatives$}) {}

namespace {

$worker$
$run_host$