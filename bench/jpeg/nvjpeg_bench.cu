// Decodes the test images (make_images's list.txt) with nvJPEG, one image a call as a user would
// (nvjpegDecode to interleaved RGB on one stream), ROUNDS times over the list; prints images/s
// and the largest difference from libjpeg's decode (the .ppm files).
//   nvcc -O2 nvjpeg_bench.cu -lnvjpeg -o nvjpeg_bench && ./nvjpeg_bench DIR ROUNDS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <nvjpeg.h>

namespace {

std::vector<unsigned char> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "nvjpeg_bench: %s failed\n", what);
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 1;
  const std::string dir = argv[1];
  const int rounds = std::atoi(argv[2]);
  std::vector<std::string> names;
  std::ifstream list(dir + "/list.txt");
  for (std::string line; std::getline(list, line);)
    if (!line.empty()) names.push_back(line);
  nvjpegHandle_t handle;
  nvjpegJpegState_t state;
  check(nvjpegCreateSimple(&handle) == NVJPEG_STATUS_SUCCESS, "nvjpegCreateSimple");
  check(nvjpegJpegStateCreate(handle, &state) == NVJPEG_STATUS_SUCCESS, "nvjpegJpegStateCreate");
  cudaStream_t stream;
  check(cudaStreamCreate(&stream) == cudaSuccess, "cudaStreamCreate");
  std::vector<std::vector<unsigned char>> files;
  std::vector<nvjpegImage_t> images;
  std::vector<int> widths, heights;
  for (const std::string& n : names) {
    files.push_back(read(dir + "/" + n));
    int nc = 0;
    nvjpegChromaSubsampling_t ss;
    int w[NVJPEG_MAX_COMPONENT], h[NVJPEG_MAX_COMPONENT];
    check(nvjpegGetImageInfo(handle, files.back().data(), files.back().size(), &nc, &ss, w, h) ==
              NVJPEG_STATUS_SUCCESS,
          "nvjpegGetImageInfo");
    nvjpegImage_t img{};
    check(cudaMalloc(reinterpret_cast<void**>(&img.channel[0]),
                     static_cast<std::size_t>(w[0]) * h[0] * 3) == cudaSuccess,
          "cudaMalloc");
    img.pitch[0] = static_cast<unsigned>(w[0] * 3);
    images.push_back(img);
    widths.push_back(w[0]);
    heights.push_back(h[0]);
  }
  auto decode_all = [&] {
    for (std::size_t i = 0; i < files.size(); ++i)
      check(nvjpegDecode(handle, state, files[i].data(), files[i].size(), NVJPEG_OUTPUT_RGBI,
                         &images[i], stream) == NVJPEG_STATUS_SUCCESS,
            "nvjpegDecode");
  };
  decode_all();  // warm-up
  check(cudaStreamSynchronize(stream) == cudaSuccess, "sync");
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r) decode_all();
  check(cudaStreamSynchronize(stream) == cudaSuccess, "sync");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int worst = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::size_t n = static_cast<std::size_t>(widths[i]) * heights[i] * 3;
    std::vector<unsigned char> got(n);
    check(cudaMemcpy(got.data(), images[i].channel[0], n, cudaMemcpyDeviceToHost) == cudaSuccess,
          "cudaMemcpy");
    const std::string ppm = names[i].substr(0, names[i].rfind('.')) + ".ppm";
    const std::vector<unsigned char> ref = read(dir + "/" + ppm);
    const std::size_t head = ref.size() - n;
    for (std::size_t k = 0; k < n; ++k)
      worst = std::max(worst, std::abs(int{got[k]} - int{ref[head + k]}));
  }
  std::printf("nvjpeg: %d images in %.3f s: %.0f images/s; largest difference from libjpeg %d\n",
              rounds * static_cast<int>(files.size()), s, rounds * files.size() / s, worst);
  return 0;
}
