// The synthetic camera's frames and the CPU reference's saliency maps
// (samples/saliency/actors/model.hpp) as files, for torch_saliency.py:
//   reference_dump frames W H N FILE   frames 0..N-1, W * H bytes each
//   reference_dump check W H T FILE    frame T (W * H bytes), then its reference map (W * H
//   doubles)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "model.hpp"

int main(int argc, char** argv) {
  const bool frames = argc == 6 && std::strcmp(argv[1], "frames") == 0;
  const bool check = argc == 6 && std::strcmp(argv[1], "check") == 0;
  if (!frames && !check) {
    std::fprintf(stderr,
                 "usage: reference_dump frames W H N FILE | reference_dump check W H T FILE\n");
    return 1;
  }
  const int w = std::atoi(argv[2]), h = std::atoi(argv[3]);
  const long long n = std::atoll(argv[4]);
  std::FILE* out = std::fopen(argv[5], "wb");
  bool ok = out != nullptr;
  std::vector<std::uint8_t> frame(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (long long t = frames ? 0 : n; ok && t < (frames ? n : n + 1); ++t) {
    saliency::render_frame(w, h, t, frame.data());
    ok = std::fwrite(frame.data(), 1, frame.size(), out) == frame.size();
  }
  if (ok && check) {
    const std::vector<double> map = saliency::reference(frame.data(), w, h);
    ok = std::fwrite(map.data(), sizeof(double), map.size(), out) == map.size();
  }
  if (!ok || std::fclose(out) != 0) {
    std::fprintf(stderr, "reference_dump: cannot write %s\n", argv[5]);
    return 1;
  }
  return 0;
}
