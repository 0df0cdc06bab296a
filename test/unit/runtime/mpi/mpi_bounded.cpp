// Bounded tokens between two ranks (dfg/mpi/transfer.hpp, dfg/bounded.hpp): host A sends tokens
// of a 10,000-byte capacity whose used bytes vary (0, 1, around the 4 KiB chunks, the capacity,
// and a sweep), in 4 KiB messages, directly and through a staging buffer; host B receives each
// at the capacity and checks the length cell it gets, every used byte, and that the bytes past
// the used ones still hold what they held before the receive: only the used bytes crossed.
// A send of more bytes than the capacity is refused with the iteration. Prints "ok: ..." per rank.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/bounded.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"

namespace {

constexpr std::size_t kCapacity = 10000;
constexpr std::size_t kChunk = 4096;
constexpr unsigned char kUntouched = 0xEE;

std::vector<std::size_t> lengths() {
  std::vector<std::size_t> out = {0, 1, 4095, 4096, 4097, 8192, 8193, kCapacity - 1, kCapacity, 0};
  for (std::size_t j = 0; j < 40; ++j) out.push_back((j * 2749 + 13) % (kCapacity + 1));
  return out;
}

unsigned char byte(std::size_t j, std::size_t i) {
  return static_cast<unsigned char>((j * 31 + i * 7) % 251);
}

/// A staging copy that moves the bytes as they are and counts them.
class CountingStaging final : public dfg::mpi::StagingCopy {
 public:
  void to_host(void* host, const void* slot, std::size_t bytes) override {
    std::memcpy(host, slot, bytes);
    copied += bytes;
  }
  void to_slot(void* slot, const void* host, std::size_t bytes) override {
    std::memcpy(slot, host, bytes);
    copied += bytes;
  }
  std::size_t copied = 0;
};

void run(dfg::mpi::Session& mpi, bool staged, int tag) {
  const std::vector<std::size_t> used = lengths();
  std::vector<unsigned char> slot(kCapacity), staging(kCapacity);
  CountingStaging copy;
  std::size_t want_copied = 0;
  if (mpi.host() == 0) {
    dfg::mpi::SendEndpoint send(mpi, mpi.rank_of_host(1), tag, kCapacity, "A -> B (bounded)",
                                kChunk);
    if (staged) send.stage_through({staging.data(), &copy});
    for (std::size_t j = 0; j < used.size(); ++j) {
      for (std::size_t i = 0; i < kCapacity; ++i) slot[i] = i < used[j] ? byte(j, i) : 0x11;
      send.start(static_cast<std::int64_t>(j), slot.data(), used[j]);
      send.wait();
      want_copied += used[j];
    }
    try {
      send.start(static_cast<std::int64_t>(used.size()), slot.data(), kCapacity + 1);
      throw std::runtime_error("a send over the capacity was accepted");
    } catch (const std::length_error& e) {
      const std::string want = "iteration " + std::to_string(used.size()) +
                               ": a token of 10001 bytes is over the capacity";
      if (std::string(e.what()).find(want) == std::string::npos)
        throw std::runtime_error(std::string("message: ") + e.what());
    }
  } else {
    dfg::mpi::RecvEndpoint recv(mpi, mpi.rank_of_host(0), tag, kCapacity, "A -> B (bounded)",
                                kChunk);
    if (staged) recv.stage_through({staging.data(), &copy});
    for (std::size_t j = 0; j < used.size(); ++j) {
      std::memset(slot.data(), kUntouched, kCapacity);
      std::uint64_t cell = 12345;
      recv.start(static_cast<std::int64_t>(j), slot.data(), &cell);
      recv.wait();
      if (cell != used[j])
        throw std::runtime_error("token " + std::to_string(j) + ": length " + std::to_string(cell) +
                                 ", sent " + std::to_string(used[j]));
      for (std::size_t i = 0; i < kCapacity; ++i) {
        const unsigned char want = i < used[j] ? byte(j, i) : kUntouched;
        if (slot[i] != want)
          throw std::runtime_error("token " + std::to_string(j) + ", byte " + std::to_string(i) +
                                   ": " + std::to_string(slot[i]) + ", expected " +
                                   std::to_string(want));
      }
      want_copied += used[j];
    }
  }
  if (staged && copy.copied != want_copied)
    throw std::runtime_error("staged " + std::to_string(copy.copied) + " bytes, used " +
                             std::to_string(want_copied));
  // One write per line: the two ranks' lines must not interleave.
  const std::string line = std::string("ok: host ") + (mpi.host() == 0 ? "A" : "B") +
                           (staged ? " staged" : "") + ": " + std::to_string(used.size()) +
                           " bounded tokens\n";
  std::cout << line << std::flush;
}

}  // namespace

int main(int argc, char** argv) {
  dfg::mpi::Session mpi(argc, argv);
  static constexpr std::string_view kHosts[] = {"A", "B"};
  if (const int s = mpi.place(kHosts, {}, std::cerr); s != 0) return s;
  try {
    run(mpi, false, 0);
    run(mpi, true, 1);
  } catch (const std::exception& e) {
    std::cerr << "error: host " << mpi.host() << ": " << e.what() << '\n';
    return 1;
  }
  return 0;
}
