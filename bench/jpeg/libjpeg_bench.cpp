// Decodes the test images with libjpeg-turbo (its defaults, to RGB, from memory), ROUNDS times
// over the list, on one thread; prints images/s.
//   g++ -O2 libjpeg_bench.cpp -ljpeg -o libjpeg_bench && ./libjpeg_bench DIR ROUNDS
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <jpeglib.h>

int main(int argc, char** argv) {
  if (argc != 3) return 1;
  const std::string dir = argv[1];
  const int rounds = std::atoi(argv[2]);
  std::vector<std::vector<unsigned char>> files;
  std::ifstream list(dir + "/list.txt");
  for (std::string line; std::getline(list, line);) {
    std::ifstream in(dir + "/" + line, std::ios::binary);
    if (!line.empty())
      files.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::vector<unsigned char> rgb(1 << 20);
  jpeg_decompress_struct d{};
  jpeg_error_mgr err{};
  d.err = jpeg_std_error(&err);
  jpeg_create_decompress(&d);
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r)
    for (const auto& f : files) {
      jpeg_mem_src(&d, f.data(), static_cast<unsigned long>(f.size()));
      jpeg_read_header(&d, TRUE);
      d.out_color_space = JCS_RGB;
      jpeg_start_decompress(&d);
      while (d.output_scanline < d.output_height) {
        JSAMPROW row =
            rgb.data() + static_cast<std::size_t>(d.output_scanline) * d.output_width * 3;
        jpeg_read_scanlines(&d, &row, 1);
      }
      jpeg_finish_decompress(&d);
    }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  jpeg_destroy_decompress(&d);
  std::printf("libjpeg-turbo: %d images in %.3f s: %.0f images/s (one thread)\n",
              rounds * static_cast<int>(files.size()), s, rounds * files.size() / s);
  return 0;
}
