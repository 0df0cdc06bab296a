// The test's files: $JPEG_DIR/list.txt names one JPEG file a line; iteration i decodes the file
// of line i modulo the count, and the sink compares with the .ppm of the same name (libjpeg's
// decode, written by make_images).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace jpeg {

inline std::string directory() {
  const char* dir = std::getenv("JPEG_DIR");
  if (dir == nullptr || *dir == '\0')
    throw std::runtime_error("JPEG_DIR is not set: the directory of list.txt");
  return dir;
}

inline std::vector<std::string> list() {
  std::ifstream in(directory() + "/list.txt");
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.push_back(line);
  if (names.empty()) throw std::runtime_error("no file in " + directory() + "/list.txt");
  return names;
}

inline std::vector<std::uint8_t> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace jpeg
