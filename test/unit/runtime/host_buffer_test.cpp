#include "dfg/host_buffer.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <utility>

// Allocation failures are part of what is tested: let the sanitizers' allocators return null.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
extern "C" const char* __tsan_default_options() { return "allocator_may_return_null=1"; }

TEST_CASE("bytes: formatting", "[host_buffer]") {
  CHECK(dfg::format_bytes(0) == "0 B");
  CHECK(dfg::format_bytes(512) == "512 B");
  CHECK(dfg::format_bytes(1024) == "1 KiB");
  CHECK(dfg::format_bytes(1536) == "1.5 KiB");
  CHECK(dfg::format_bytes(16u << 20) == "16 MiB");
  CHECK(dfg::format_bytes(std::uint64_t{3} << 29) == "1.5 GiB");
  CHECK(dfg::format_bytes(std::uint64_t{64} << 40) == "64 TiB");
}

TEST_CASE("host buffer: aligned, zeroed slots", "[host_buffer]") {
  dfg::HostBuffer b("i1.b@A.cpu", 100, 2);
  CHECK(b.name() == "i1.b@A.cpu");
  CHECK(b.slot_bytes() == 100);
  CHECK(b.slots() == 2);
  CHECK(b.stride() == 128);
  CHECK(b.bytes() == 256);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(reinterpret_cast<std::uintptr_t>(b.slot(i)) % 64 == 0);
    const auto* p = b.slot_as<const unsigned char>(i);
    bool zero = true;
    for (std::size_t j = 0; j < 100; ++j) zero = zero && p[j] == 0;
    CHECK(zero);
  }
  b.slot_as<float>(1)[24] = 1.5f;
  dfg::HostBuffer moved = std::move(b);
  CHECK(moved.slot_as<float>(1)[24] == 1.5f);
  CHECK(b.data() == nullptr);  // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
  dfg::HostBuffer assigned;
  assigned = std::move(moved);
  CHECK(assigned.name() == "i1.b@A.cpu");
  dfg::HostBuffer empty("e@A.cpu", 0);
  CHECK(empty.bytes() == 0);
}

TEST_CASE("host buffer: failures name the buffer and the size", "[host_buffer]") {
  try {
    dfg::HostBuffer b("big@A.cpu", std::size_t{1} << 46);
    FAIL("a 64 TiB buffer was allocated");
  } catch (const dfg::AllocError& e) {
    CHECK(std::string(e.what()) == "cannot allocate 64 TiB for buffer big@A.cpu");
  }
  CHECK_THROWS_AS(dfg::HostBuffer("huge@A.cpu", std::size_t{1} << 62, 8), dfg::AllocError);
}
