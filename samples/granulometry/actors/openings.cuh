// Openings of a 3D volume with growing structuring elements (6-neighbour unit element): opening k
// erodes the volume k times and dilates the result k times; counts[k - 1] is the number of voxels
// left. The eroded volume carries over from one opening to the next, so the head hands the tail
// the volume eroded `last` times. Voxels outside the volume count as empty.
//
// The volume is binary (a voxel is set where it is non-zero): both actors pack it, 32 voxels a
// word, on arrival and work on the packed form (packed_morphology.cuh: several erosion and
// dilation steps per launch, counts by popcount); the head unpacks the eroded volume it hands on
// (0 or 1 per voxel).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <dfg/context.hpp>
#include <dfg/cuda/check.hpp>

#include "packed_morphology.cuh"

/// The packed volumes and the opening loop shared by the head and the tail.
struct OpeningsBase {
  int first = 1;
  int last = 1;
  /// Scratch: each firing packs its volume first, which resets what the openings change, so
  /// every firing enqueues the same work (a CUDA graph may hold it: fire is const).
  mutable packed::Openings openings_;

  void init(dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    int side = 0;
    while (static_cast<std::size_t>(side) * side * side < n) ++side;
    DFG_CUDA_CHECK(openings_.init(side), "packed volumes of the openings");
  }

  void run(const std::uint8_t* start, std::int64_t* counts, dfg::Context& ctx) const {
    DFG_CUDA_CHECK(openings_.pack(start, ctx.stream()), "pack the volume");
    DFG_CUDA_CHECK(openings_.run(first, last, counts, ctx.elements(counts_port()), ctx.stream()), "openings");
  }
  virtual std::size_t counts_port() const = 0;
};

struct OpeningsHead : OpeningsBase {
  void fire(const std::uint8_t* volume, std::uint8_t* eroded, std::int64_t* counts,
            dfg::Context& ctx) const {
    run(volume, counts, ctx);
    DFG_CUDA_CHECK(openings_.unpack(eroded, ctx.stream()), "unpack the eroded volume");
  }
  std::size_t counts_port() const override { return 2; }
};

struct OpeningsTail : OpeningsBase {
  void fire(const std::uint8_t* eroded, std::int64_t* counts, dfg::Context& ctx) const {
    run(eroded, counts, ctx);
  }
  std::size_t counts_port() const override { return 1; }
};
