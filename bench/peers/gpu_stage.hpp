// A GPU stage of the peers chain, as dfgc runs a mapped token between a CPU and a GPU
// (actors/chain_gpu.cuh): the CPU copies the token into mapped host memory, one kernel of one
// block, a thread per element, reads it and writes its output there over the bus, the CPU waits
// for the stream and copies the output out.
// Guarantees: fire() blocks until the kernel has run; one thread at a time per stage (every peer
// runs a stage serially); the constructor allocates and creates the stream, fire() neither.
#pragma once

#include "chain.hpp"

struct CUstream_st;

namespace peers {

class GpuStage {
 public:
  GpuStage();
  ~GpuStage();
  GpuStage(const GpuStage&) = delete;
  GpuStage& operator=(const GpuStage&) = delete;

  Token fire(const Token& in);

 private:
  Token* in_ = nullptr;   // mapped host memory: the kernel's input ...
  Token* out_ = nullptr;  // ... and output
  Token* device_in_ = nullptr;
  Token* device_out_ = nullptr;
  CUstream_st* stream_ = nullptr;
};

}  // namespace peers
