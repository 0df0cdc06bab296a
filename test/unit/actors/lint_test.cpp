/// \file
/// The overlap lint of GPU actors.
#include <catch2/catch.hpp>

#include "actors_test_util.hpp"

using namespace dfgc;
using dfgc::test::ActorProgram;
using Lines = std::vector<std::string>;

namespace {
const std::string kLint = "test/unit/actors/inputs/lint.cuh";
const std::string h = kLint + ":";
const std::string kDefault =
    "runs on the legacy default stream, which serialises with the transfers dfgc overlaps; ";
const std::string kOther =
    "uses a stream other than ctx.stream(), so dfgc cannot order it with the transfers of the "
    "cycle; ";
const std::string kLaunch = "launch it with <<<grid, block, shared_bytes, ctx.stream()>>>";
const std::string kBlocks =
    "blocks the host thread and serialises with the transfers dfgc overlaps; use ";
const std::string kWaits =
    "blocks the host thread until the work it waits for has finished, and stalls the firings and "
    "transfers of the cycle behind it; remove it: dfgc waits for ctx.stream() at the end of the "
    "cycle";
const std::string kAllocates =
    "synchronises the whole device on every firing; allocate once, in init";
const std::string kFrees =
    "synchronises the whole device on every firing; allocate in init and free in the destructor";
}  // namespace

TEST_CASE("asynchronous work must go to ctx.stream()", "[actors][lint]") {
  ActorProgram p;
  p.actor("Streams").in("a").out("b").gpu(kLint, "LintStreams");
  ActorSignatures s = p.check();
  CHECK(
      p.reported() ==
      Lines{
          h + "20:5: warning: 'cudaMemcpyAsync' without a stream " + kDefault + "pass ctx.stream()",
          h + "21:56: warning: 'cudaMemcpyAsync' on stream 0 " + kDefault + "pass ctx.stream()",
          h + "22:30: warning: 'cudaMemsetAsync' " + kOther + "pass ctx.stream()",
          h + "23:40: warning: 'cudaMemcpyPeerAsync' on stream 0 " + kDefault + "pass ctx.stream()",
          h + "24:5: warning: 'cudaLaunchKernel' without a stream " + kDefault +
              "pass ctx.stream()",
          h + "25:5: warning: launch of 'copy_kernel' without a stream " + kDefault + kLaunch,
          h + "26:29: warning: launch of 'copy_kernel' on stream 0 " + kDefault + kLaunch,
          h + "27:29: warning: launch of 'copy_kernel' " + kOther + kLaunch,
          h + "29:5: warning: kernel launch without a stream " + kDefault + kLaunch,
          h + "30:24: warning: 'cudaStreamSynchronize' " + kWaits,
          h + "36:26: warning: 'cudaMemset' " + kBlocks + "cudaMemsetAsync on ctx.stream()",
          "  " + h + "32:5: note: called from 'fire' here",
      });
  // Warnings do not make the implementation fail.
  CHECK(s.size() == 1);
}

TEST_CASE("synchronous CUDA calls in fire are reported with what to do instead", "[actors][lint]") {
  ActorProgram p;
  p.actor("Sync").in("a").out("b").gpu(kLint, "LintSync");
  p.check();
  auto async = [](const char* name) { return kBlocks + name + " on ctx.stream()"; };
  CHECK(p.reported() ==
        Lines{
            h + "50:5: warning: 'cudaMemcpy' " + async("cudaMemcpyAsync"),
            h + "51:5: warning: 'cudaMemcpy2D' " + async("cudaMemcpy2DAsync"),
            h + "52:5: warning: 'cudaMemcpy3D' " + async("cudaMemcpy3DAsync"),
            h + "53:5: warning: 'cudaMemset' " + async("cudaMemsetAsync"),
            h + "54:5: warning: 'cudaMemcpyToSymbol' " + async("cudaMemcpyToSymbolAsync"),
            h + "55:5: warning: 'cudaMemcpyFromSymbol' " + async("cudaMemcpyFromSymbolAsync"),
            h + "56:5: warning: 'cudaDeviceSynchronize' " + kWaits,
            h + "57:5: warning: 'cudaStreamSynchronize' " + kWaits,
            h + "58:5: warning: 'cudaEventSynchronize' " + kWaits,
            h + "59:5: warning: 'cudaMalloc' " + kAllocates,
            h + "60:5: warning: 'cudaMallocHost' " + kAllocates,
            h + "61:5: warning: 'cudaHostAlloc' " + kAllocates,
            h + "62:5: warning: 'cudaMallocManaged' " + kAllocates,
            h + "63:5: warning: 'cudaMallocPitch' " + kAllocates,
            h + "64:5: warning: 'cudaFree' " + kFrees,
            h + "65:5: warning: 'cudaFreeHost' " + kFrees,
            h + "66:5: warning: 'cudaDeviceReset' destroys the device's context, and with it "
                "dfgc's streams and buffers; remove it",
            h + "67:5: warning: 'cudaSetDevice' changes the device of the worker thread; remove "
                "it: dfgc selects ctx.device() before every firing",
        });
}

TEST_CASE("under --Werror the lint's findings are errors and the implementation fails",
          "[actors][lint]") {
  ActorProgram p;
  p.actor("Streams").in("a").out("b").gpu(kLint, "LintStreams");
  ActorSignatures s = p.check(/*werror=*/true);
  CHECK(p.warning_count() == 0);
  CHECK(p.error_count() == 11);
  CHECK(p.reported().front() == h + "20:5: error: 'cudaMemcpyAsync' without a stream " + kDefault +
                                    "pass ctx.stream() [-Werror]");
  // The signature is still computed; the driver stops on the error count.
  CHECK(s.size() == 1);
}

TEST_CASE("a class used by two actors is linted once", "[actors][lint]") {
  ActorProgram p;
  p.actor("One").in("a").out("b").gpu(kLint, "LintStreams");
  p.actor("Two").in("a").out("b").gpu(kLint, "LintStreams");
  ActorSignatures s = p.check();
  CHECK(p.warning_count() == 11);
  CHECK(s.size() == 2);
}

TEST_CASE("cuFFT plans must be bound to ctx.stream() in fire before they execute",
          "[actors][lint]") {
  const std::string f = "test/unit/actors/inputs/lint_cufft.cuh:";
  const std::string unbound =
      " runs on the stream last bound to its handle, and fire binds none to ctx.stream() before "
      "it: by default the legacy default stream, which serialises with the transfers dfgc "
      "overlaps; call cufftSetStream(handle, ctx.stream()) in fire before it";
  ActorProgram p;
  p.actor("Fft").in("a").out("b").gpu("test/unit/actors/inputs/lint_cufft.cuh", "LintCufft");
  p.check();
  CHECK(p.reported() ==
        Lines{
            f + "22:5: warning: 'cufftExecC2C'" + unbound,
            f + "25:5: warning: 'cufftExecC2C'" + unbound,
            f + "26:29: warning: 'cufftSetStream' " + kOther + "pass ctx.stream()",
            f + "27:33: warning: 'cufftSetStream' on stream 0 " + kDefault + "pass ctx.stream()",
            f + "28:5: warning: 'cufftExecR2C'" + unbound,
            f + "33:5: warning: 'cufftExecC2C'" + unbound,
            "  " + f + "29:5: note: called from 'fire' here",
        });
  ActorProgram bound;
  bound.actor("Fft").in("a").out("b").gpu("test/unit/actors/inputs/lint_cufft.cuh",
                                          "CufftBoundInHelper");
  bound.check();
  CHECK(bound.reported().empty());
}
