// Writes the decoder's test images into a directory: synthetic images of odd sizes encoded with
// libjpeg (4:2:0, 4:2:2, 4:4:4, grey; a restart interval; optimised Huffman tables), each with
// libjpeg's own decode as a .ppm (its defaults: the ISLOW IDCT, fancy upsampling), and list.txt.
//   g++ -O2 make_images.cpp -ljpeg -o make_images && ./make_images DIR
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <jpeglib.h>

namespace {

struct Spec {
  const char* name;
  int width, height;
  int h, v;  // luma sampling factors; 0 for grey
  int quality;
  int restart;  // MCUs between restart markers, 0 for none
  bool optimize;
};

const Spec kSpecs[] = {
    {"a_64x48_420", 64, 48, 2, 2, 90, 0, false},       {"b_63x47_420", 63, 47, 2, 2, 75, 0, true},
    {"c_128x96_420_rst", 128, 96, 2, 2, 95, 5, false}, {"d_63x47_444", 63, 47, 1, 1, 85, 0, false},
    {"e_33x17_422", 33, 17, 2, 1, 80, 3, false},       {"f_64x48_grey", 64, 48, 0, 0, 90, 0, false},
    {"g_17x9_420", 17, 9, 2, 2, 50, 0, false},
};

// Smooth gradients, a disc, stripes and some noise: every kind of coefficient.
std::vector<std::uint8_t> picture(const Spec& s, int channels) {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(s.width * s.height * channels));
  std::uint32_t seed = 12345u + static_cast<std::uint32_t>(s.width * 31 + s.height);
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x) {
      seed = seed * 1664525u + 1013904223u;
      const int noise = static_cast<int>(seed >> 27) - 16;
      const double dx = x - s.width / 2.0, dy = y - s.height / 2.0;
      const bool disc = dx * dx + dy * dy < s.height * s.height / 9.0;
      const int v[3] = {x * 255 / s.width, y * 255 / s.height,
                        disc ? 230 : ((x / 3 + y / 2) % 2) * 120 + 40};
      for (int c = 0; c < channels; ++c) {
        const int k = channels == 1 ? (v[0] + v[1] + v[2]) / 3 : v[c];
        px[static_cast<std::size_t>((y * s.width + x) * channels + c)] =
            static_cast<std::uint8_t>(std::clamp(k + noise, 0, 255));
      }
    }
  return px;
}

std::vector<unsigned char> encode(const Spec& s) {
  const int channels = s.h == 0 ? 1 : 3;
  std::vector<std::uint8_t> px = picture(s, channels);
  jpeg_compress_struct c{};
  jpeg_error_mgr err{};
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* mem = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &mem, &size);
  c.image_width = static_cast<JDIMENSION>(s.width);
  c.image_height = static_cast<JDIMENSION>(s.height);
  c.input_components = channels;
  c.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, s.quality, TRUE);
  if (channels == 3) {
    c.comp_info[0].h_samp_factor = s.h;
    c.comp_info[0].v_samp_factor = s.v;
  }
  c.restart_interval = static_cast<unsigned>(s.restart);
  c.optimize_coding = s.optimize ? TRUE : FALSE;
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = px.data() + static_cast<std::size_t>(c.next_scanline) *
                                   static_cast<std::size_t>(s.width * channels);
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::vector<unsigned char> out(mem, mem + size);
  std::free(mem);
  return out;
}

// libjpeg's decode with its defaults, to RGB.
std::vector<unsigned char> decode(const std::vector<unsigned char>& file, int& w, int& h) {
  jpeg_decompress_struct d{};
  jpeg_error_mgr err{};
  d.err = jpeg_std_error(&err);
  jpeg_create_decompress(&d);
  jpeg_mem_src(&d, file.data(), static_cast<unsigned long>(file.size()));
  jpeg_read_header(&d, TRUE);
  d.out_color_space = JCS_RGB;
  jpeg_start_decompress(&d);
  w = static_cast<int>(d.output_width);
  h = static_cast<int>(d.output_height);
  std::vector<unsigned char> rgb(static_cast<std::size_t>(w * h * 3));
  while (d.output_scanline < d.output_height) {
    JSAMPROW row =
        rgb.data() + static_cast<std::size_t>(d.output_scanline) * static_cast<std::size_t>(w * 3);
    jpeg_read_scanlines(&d, &row, 1);
  }
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  return rgb;
}

bool write(const std::string& path, const void* data, std::size_t n, const std::string& head = "") {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok =
      std::fwrite(head.data(), 1, head.size(), f) == head.size() && std::fwrite(data, 1, n, f) == n;
  return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_images DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  std::string list;
  for (const Spec& s : kSpecs) {
    const std::vector<unsigned char> file = encode(s);
    int w = 0, h = 0;
    const std::vector<unsigned char> rgb = decode(file, w, h);
    const std::string head = "P6\n" + std::to_string(w) + " " + std::to_string(h) + "\n255\n";
    if (!write(dir + "/" + s.name + ".jpg", file.data(), file.size()) ||
        !write(dir + "/" + s.name + ".ppm", rgb.data(), rgb.size(), head)) {
      std::fprintf(stderr, "make_images: cannot write into %s\n", dir.c_str());
      return 1;
    }
    std::printf("%s.jpg: %dx%d, %zu bytes\n", s.name, w, h, file.size());
    list += std::string(s.name) + ".jpg\n";
  }
  return write(dir + "/list.txt", list.data(), list.size()) ? 0 : 1;
}
