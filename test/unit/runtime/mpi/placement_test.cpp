// The parts of the MPI layer that need no running MPI: host placement (--hostmap, DFG_HOSTMAP),
// the start-up messages, the chunking of large tokens, the job's error line, the MPI flags.
#include "dfg/mpi/placement.hpp"
#include "dfg/flags.hpp"
#include "dfg/mpi/abort.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using dfg::mpi::place_hosts;

constexpr std::array<std::string_view, 3> kHosts = {"A", "B", "C"};

std::string error_of(std::string_view map, int ranks = 3, std::string_view source = "--hostmap") {
  const dfg::mpi::Placement p = place_hosts(kHosts, ranks, map, source);
  CHECK_FALSE(p.ok());
  CHECK(p.rank_of_host.empty());
  CHECK(p.error.find('\n') == std::string::npos);
  return p.error;
}

}  // namespace

TEST_CASE("placement: host i runs on rank i by default", "[mpi][placement]") {
  const dfg::mpi::Placement p = place_hosts(kHosts, 3, "");
  REQUIRE(p.ok());
  CHECK(p.rank_of_host == std::vector<int>{0, 1, 2});
  CHECK(p.host_of_rank(2) == 2);
  CHECK(place_hosts(kHosts, 3, "  ").rank_of_host == std::vector<int>{0, 1, 2});
}

TEST_CASE("placement: a hostmap permutes the hosts over the ranks", "[mpi][placement]") {
  const dfg::mpi::Placement p = place_hosts(kHosts, 3, "C=0, A=1,B = 2");
  REQUIRE(p.ok());
  CHECK(p.rank_of_host == std::vector<int>{1, 2, 0});
  CHECK(p.host_of_rank(0) == 2);
  CHECK(p.host_of_rank(1) == 0);
  CHECK(p.host_of_rank(3) == -1);
}

TEST_CASE("placement: the wrong number of ranks is refused before the map is read",
          "[mpi][placement]") {
  const std::array<std::string_view, 2> two = {"A", "B"};
  CHECK(place_hosts(two, 3, "A=0,B=1").error ==
        "error: this program runs 2 hosts (A, B) and needs exactly 2 MPI ranks; mpirun started 3");
  CHECK(place_hosts(two, 1, "").error ==
        "error: this program runs 2 hosts (A, B) and needs exactly 2 MPI ranks; mpirun started 1");
  const std::array<std::string_view, 1> one = {"A"};
  CHECK(dfg::mpi::rank_count_error(one, 2) ==
        "error: this program runs 1 host (A) and needs exactly 1 MPI rank; mpirun started 2");
  CHECK(dfg::mpi::rank_count_error(one, 1).empty());
}

TEST_CASE("placement: hostmap errors name the source and the entry", "[mpi][placement]") {
  CHECK(error_of("A=0,B=1") ==
        "error: --hostmap: host 'C' has no rank (every host needs one: A, B, C)");
  CHECK(error_of("A=0,B=1,C=2,A=1") == "error: --hostmap: host 'A' is given twice");
  CHECK(error_of("A=0,B=0,C=2") == "error: --hostmap: rank 0 is given to both A and B");
  CHECK(error_of("A=0,B=1,D=2") == "error: --hostmap: unknown host 'D' (hosts: A, B, C)");
  CHECK(error_of("A=0,B=1,C=3") ==
        "error: --hostmap: C=3: rank out of range (mpirun started 3 ranks: 0..2)");
  CHECK(error_of("A=0,B=1,C=-1") ==
        "error: --hostmap: C=-1: rank out of range (mpirun started 3 ranks: 0..2)");
  CHECK(error_of("A=0,B=x,C=2") == "error: --hostmap: B: expected a rank (an integer), got 'x'");
  CHECK(error_of("A=0,B=1 2,C=2") ==
        "error: --hostmap: B: expected a rank (an integer), got '1 2'");
  CHECK(error_of("A=0,B,C=2") == "error: --hostmap: expected HOST=RANK[,HOST=RANK...], got 'B'");
  CHECK(error_of("A=0,,C=2") ==
        "error: --hostmap: expected HOST=RANK[,HOST=RANK...], got 'A=0,,C=2'");
  CHECK(error_of("A=0,B=1,C=2,") ==
        "error: --hostmap: expected HOST=RANK[,HOST=RANK...], got 'A=0,B=1,C=2,'");
  CHECK(error_of("=0,B=1,C=2") == "error: --hostmap: expected HOST=RANK[,HOST=RANK...], got '=0'");
  CHECK(error_of("A=,B=1,C=2") == "error: --hostmap: expected HOST=RANK[,HOST=RANK...], got 'A='");
  CHECK(error_of("A=0,B=1", 3, "DFG_HOSTMAP") ==
        "error: DFG_HOSTMAP: host 'C' has no rank (every host needs one: A, B, C)");
  const std::array<std::string_view, 1> one = {"A"};
  CHECK(place_hosts(one, 1, "A=1").error ==
        "error: --hostmap: A=1: rank out of range (mpirun started 1 rank: 0)");
}

TEST_CASE("placement: GPU ordinals the machine lacks", "[mpi][placement]") {
  const std::array<dfg::mpi::GpuUse, 2> gpus = {{{"B.g0", 0}, {"B.g1", 1}}};
  CHECK(dfg::mpi::gpu_ordinals_error(gpus, 2).empty());
  CHECK(dfg::mpi::gpu_ordinals_error(gpus, 1) ==
        "B.g1 is CUDA device 1, but this machine has 1 CUDA device (ordinal 0)");
  CHECK(dfg::mpi::gpu_ordinals_error(gpus, 0) ==
        "B.g0 is CUDA device 0, but this machine has no CUDA device");
  const std::array<dfg::mpi::GpuUse, 1> g3 = {{{"A.g3", 3}}};
  CHECK(dfg::mpi::gpu_ordinals_error(g3, 2) ==
        "A.g3 is CUDA device 3, but this machine has 2 CUDA devices (ordinals 0..1)");
  CHECK(dfg::mpi::gpu_ordinals_error({}, 0).empty());
}

TEST_CASE("transfer: tokens above INT_MAX bytes are cut into messages of at most chunk_bytes",
          "[mpi][chunks]") {
  STATIC_REQUIRE(dfg::mpi::kDefaultChunkBytes <= static_cast<std::size_t>(INT_MAX));
  const std::size_t gib = std::size_t{1} << 30;
  const dfg::mpi::ChunkPlan big{5 * gib + 3};
  REQUIRE(big.count() == 6);
  std::size_t total = 0;
  for (std::size_t c = 0; c < big.count(); ++c) {
    CHECK(big.offset(c) == total);
    CHECK(big.size(c) <= static_cast<std::size_t>(INT_MAX));
    total += big.size(c);
  }
  CHECK(total == 5 * gib + 3);
  CHECK(big.size(5) == 3);

  CHECK(dfg::mpi::ChunkPlan{4 * gib}.count() == 4);
  CHECK(dfg::mpi::ChunkPlan{4 * gib}.size(3) == gib);
  CHECK(dfg::mpi::ChunkPlan{0}.count() == 1);
  CHECK(dfg::mpi::ChunkPlan{0}.size(0) == 0);
  const dfg::mpi::ChunkPlan small{10, 4};
  CHECK(small.count() == 3);
  CHECK(small.size(0) == 4);
  CHECK(small.size(2) == 2);
  CHECK(dfg::mpi::ChunkPlan{12, 4}.count() == 3);
  CHECK(dfg::mpi::ChunkPlan{12, 4}.size(2) == 4);
}

TEST_CASE("abort: the job's error line names the rank, the host and the first error",
          "[mpi][abort]") {
  dfg::Abort abort;
  CHECK(dfg::mpi::job_error_message("rank 1 (host B)", abort) == "error: rank 1 (host B): stopped");
  abort.raise("node i2 (Inc) @ B.g0", 17,
              "cudaErrorIllegalAddress: an illegal memory access was encountered");
  CHECK(
      dfg::mpi::job_error_message("rank 1 (host B)", abort) ==
      "error: rank 1 (host B): node i2 (Inc) @ B.g0, iteration 17: cudaErrorIllegalAddress: an illegal memory "
      "access was encountered");
}

TEST_CASE("flags: --hostmap and --no-cuda-aware-mpi", "[mpi][flags]") {
  const char* argv[] = {"app", "--hostmap", "A=1,B=0", "--no-cuda-aware-mpi"};
  const dfg::FlagsResult r = dfg::parse_flags(4, argv, {});
  REQUIRE(r.ok());
  CHECK(r.options.hostmap == "A=1,B=0");
  CHECK_FALSE(r.options.cuda_aware_mpi);
  const char* plain[] = {"app"};
  const dfg::FlagsResult d = dfg::parse_flags(1, plain, {});
  CHECK(d.options.hostmap.empty());
  CHECK(d.options.cuda_aware_mpi);
  const char* eq[] = {"app", "--hostmap=B=0,A=1"};
  CHECK(dfg::parse_flags(2, eq, {}).options.hostmap == "B=0,A=1");
  const char* missing[] = {"app", "--hostmap"};
  CHECK(dfg::parse_flags(2, missing, {}).error ==
        "error: --hostmap: missing value (HOST=RANK,...)");
  const char* valued[] = {"app", "--no-cuda-aware-mpi=1"};
  CHECK(dfg::parse_flags(2, valued, {}).error == "error: --no-cuda-aware-mpi: takes no value");
}

TEST_CASE("run flags: a rank started with other --iterations, --no-overlap or --sync is named",
          "[mpi][flags]") {
  const dfg::mpi::RunFlags first{100, true, false};
  CHECK(dfg::mpi::run_flags_error(first, "rank 1 (host B)", first, "rank 0 (host A)").empty());
  CHECK(
      dfg::mpi::run_flags_error({50, true, false}, "rank 1 (host B)", first, "rank 0 (host A)") ==
      "error: rank 1 (host B) was started with --iterations 50, rank 0 (host A) with 100; every rank needs the "
      "same --iterations, --no-overlap, --sync, --migrate and --migrate-control");
  CHECK(
      dfg::mpi::run_flags_error({100, false, false}, "rank 2 (host C)", first, "rank 0 (host A)") ==
      "error: rank 2 (host C) was started with --no-overlap, rank 0 (host A) without it; every rank needs the "
      "same --iterations, --no-overlap, --sync, --migrate and --migrate-control");
  CHECK(
      dfg::mpi::run_flags_error(first, "rank 1 (host A)", {100, false, false}, "rank 0 (host B)") ==
      "error: rank 1 (host A) was started without --no-overlap, rank 0 (host B) with it; every rank needs the "
      "same --iterations, --no-overlap, --sync, --migrate and --migrate-control");
  CHECK(
      dfg::mpi::run_flags_error({100, true, true}, "rank 1 (host B)", first, "rank 0 (host A)") ==
      "error: rank 1 (host B) was started with --sync=barrier, rank 0 (host A) with --sync=neighbours; every "
      "rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control");
  // The first difference is named: --iterations before --no-overlap before --sync.
  CHECK(dfg::mpi::run_flags_error({7, false, true}, "rank 1", first, "rank 0")
            .find("--iterations 7,") != std::string::npos);
}

TEST_CASE("run flags: a rank started with other --migrate or --migrate-control is named",
          "[mpi][flags]") {
  const dfg::mpi::RunFlags first{100, true, false, "p:A.c1@2", false};
  CHECK(dfg::mpi::run_flags_error(first, "rank 1 (host B)", first, "rank 0 (host A)").empty());
  CHECK(dfg::mpi::run_flags_error({100, true, false, "", false}, "rank 1 (host B)", first,
                                  "rank 0 (host A)") ==
        "error: rank 1 (host B) was started with no --migrate, rank 0 (host A) with --migrate "
        "p:A.c1@2; every rank needs the same --iterations, --no-overlap, --sync, --migrate and "
        "--migrate-control");
  CHECK(dfg::mpi::run_flags_error({100, true, false, "p:A.c1@3", false}, "rank 1", first, "rank 0")
            .find("with --migrate p:A.c1@3, rank 0 with --migrate p:A.c1@2;") != std::string::npos);
  CHECK(dfg::mpi::run_flags_error({100, true, false, "p:A.c1@2", true}, "rank 1 (host B)", first,
                                  "rank 0 (host A)") ==
        "error: rank 1 (host B) was started with --migrate-control, rank 0 (host A) without it; "
        "every rank needs the same --iterations, --no-overlap, --sync, --migrate and "
        "--migrate-control");
}

TEST_CASE("run flags of the options: the moves as given and whether moves are live",
          "[mpi][flags]") {
  const char* argv[] = {"app",          "--migrate", "a:B.cpu@7",         "--migrate", "g:A.g0@9",
                        "--iterations", "50",        "--migrate-control", "ctl"};
  const dfg::FlagsResult flags = dfg::parse_flags(9, argv, {});
  REQUIRE(flags.ok());
  const dfg::mpi::RunFlags run = dfg::mpi::run_flags(flags.options);
  CHECK(run.iterations == 50);
  CHECK(run.migrations == "a:B.cpu@7 g:A.g0@9");
  CHECK(run.live_moves);
}

TEST_CASE("run params: a rank started with other runtime params is named, with both values",
          "[mpi][flags]") {
  const std::array<std::string_view, 2> names = {"N", "LOOPS"};
  const std::vector<std::int64_t> first = {256, 2};
  CHECK(dfg::mpi::run_params_error(names, first, "rank 1 (host B)", first, "rank 0 (host A)")
            .empty());
  const std::vector<std::int64_t> other = {128, 2};
  CHECK(
      dfg::mpi::run_params_error(names, other, "rank 1 (host B)", first, "rank 0 (host A)") ==
      "error: rank 1 (host B) was started with N=128, rank 0 (host A) with N=256; every rank needs the same "
      "runtime params (--set, --params)");
  const std::vector<std::int64_t> loops = {256, 7};
  CHECK(
      dfg::mpi::run_params_error(names, loops, "rank 2 (host C)", first, "rank 0 (host A)") ==
      "error: rank 2 (host C) was started with LOOPS=7, rank 0 (host A) with LOOPS=2; every rank needs the same "
      "runtime params (--set, --params)");
  CHECK(dfg::mpi::run_params_error({}, {}, "rank 1", {}, "rank 0").empty());
}

TEST_CASE("window: DFG_MPI_WINDOW_BYTES sets the largest windowed token, else 16 KiB",
          "[mpi][window]") {
  using dfg::mpi::Session;
  const auto with = [](const char* value) {
    if (value == nullptr)
      ::unsetenv(Session::kWindowBytesEnv);
    else
      ::setenv(Session::kWindowBytesEnv, value, 1);
    const int bytes = Session::window_bytes_from_env();
    ::unsetenv(Session::kWindowBytesEnv);
    return bytes;
  };
  const int fallback = static_cast<int>(dfg::mpi::kWindowMaxBytes);
  CHECK(fallback == 16384);
  CHECK(dfg::mpi::kDirectMaxBytes <= dfg::mpi::kWindowMaxBytes);
  CHECK(with(nullptr) == fallback);
  CHECK(with("1") == 1);
  CHECK(with("65536") == 65536);
  CHECK(with("1048576") == Session::kMaxWindowBytes);
  CHECK(with("1048577") == fallback);
  CHECK(with("0") == fallback);
  CHECK(with("") == fallback);
  CHECK(with("16k") == fallback);
  CHECK(with("99999999999999999999") == fallback);
}
