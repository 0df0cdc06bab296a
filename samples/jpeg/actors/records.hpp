// The records the decoder's int32 rings carry: [tag, n, n payload elements]. A reader peeks the
// head, waits until the whole record is there, then takes it; a writer waits for room for the
// whole record. So an action moves whole records and no actor sees half of one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/ports.hpp"

namespace jpeg {

/// Tags of the records.
enum Tag : std::int32_t {
  kSegment = 1,     // markers -> huffman: [marker code, segment bytes...] (DQT, DHT, SOF, DRI, SOS)
  kEndOfImage = 2,  // markers -> huffman, and on down the chain: the image is complete
  kFrame = 3,  // huffman -> colour: [width, height, components, (H, V) each, 64 quantisers each]
  kBlock = 4,  // huffman -> colour: [component, block column, block row, 64 values, natural order]
};

/// On the int16 entropy ring, beside the bytes 0..255 of the entropy-coded data (stuffing removed).
constexpr std::int16_t kRestartMarker = -1;  // RSTn
constexpr std::int16_t kEndOfScan = -2;      // the marker after the scan's data

/// Payload elements of a block record.
constexpr std::size_t kBlockPayload = 3 + 64;
/// The largest frame record: 4 components.
constexpr std::size_t kMaxFrameRecord = 2 + 3 + 4 * 2 + 4 * 64;

/// zigzag[k]: the natural (row-major) index of the k-th coefficient in zigzag order.
constexpr int kZigzag[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
                             12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
                             35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
                             58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

/// Takes one whole record if it is there: rec = [tag, payload...]. False if it is not complete yet.
inline bool read_record(dfg::In<std::int32_t>& in, std::vector<std::int32_t>& rec) {
  if (in.available() < 2) return false;
  auto head = in.peek(2);
  const std::size_t n = static_cast<std::size_t>(head[1]);
  if (in.available() < 2 + n) return false;
  auto all = in.peek(2 + n);
  rec.resize(1 + n);
  rec[0] = all[0];
  all.sub(2, n).copy_to(rec.data() + 1);
  in.release(2 + n);
  return true;
}

/// Gives one record [tag, n, payload] if there is room for all of it.
inline bool write_record(dfg::Out<std::int32_t>& out, std::int32_t tag, const std::int32_t* payload,
                         std::size_t n) {
  if (out.room() < 2 + n) return false;
  auto slots = out.reserve(2 + n);
  slots[0] = tag;
  slots[1] = static_cast<std::int32_t>(n);
  if (n > 0) slots.sub(2, n).copy_from(payload);
  out.commit(2 + n);
  return true;
}

/// A decoding error: the run stops with the node and the iteration.
[[noreturn]] inline void corrupt(const std::string& what) {
  throw std::runtime_error("jpeg: " + what);
}

}  // namespace jpeg
