$header$
// island $name$ @ $pe$: the dynamic nodes $members$ on their rings, run to quiescence in each
// firing of node $name$ (dfg/island.hpp).
#pragma once

#include <cstdint>

#include "dfg/bounded.hpp"
#include "dfg/context.hpp"
#include "dfg/island.hpp"
#include "dfg/ports.hpp"
$includes$

class $cls$ {
 public:
  $cls$() {
    $setup$
  }
  $cls$(const $cls$&) = delete;
  $cls$& operator=(const $cls$&) = delete;
$init$
  /// One firing: this firing's input tokens into their rings, the members to quiescence, the
  /// output tokens filled; an IslandError names the port and the iteration otherwise.
  void fire($params$dfg::Context& ctx) {
    const std::int64_t j = ctx.iteration();
    $begin$
    island_.run(j);
    $finish$
  }

 private:
  $steppers$
  $fifos$
  $actors$
  $adapters$
  dfg::Island island_{"$name$"};
};
