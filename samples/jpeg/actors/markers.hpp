// The marker reader: splits a file's bytes into segments (DQT, DHT, SOF, DRI, SOS, each a record
// to the Huffman decoder) and the entropy-coded data (its bytes on a ring of int16, 0xFF00
// unstuffed, RSTn and the marker after the scan as negative values). Each firing of the static
// source brings one file, a bounded token of its length; after EOI the next byte starts a file.
//
// A firing takes a run of bytes at once: the entropy-coded data up to the next 0xFF (found with
// memchr) goes out in one batch, a segment's payload is appended in one piece; only the few bytes
// of a marker and its length go one at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dfg/ports.hpp"
#include "records.hpp"

struct Markers {
  enum class State { kFF, kCode, kLengthHigh, kLengthLow, kPayload, kEntropy, kEntropyFF };
  State state = State::kFF;
  int marker = 0;
  std::size_t length = 0;             // of the segment's payload
  std::vector<std::int32_t> segment;  // [marker, payload bytes...]
  bool pending = false;               // a complete segment waiting for room on its ring

  bool step(dfg::In<std::uint8_t> bytes, dfg::Out<std::int32_t> segments,
            dfg::Out<std::int16_t> entropy) {
    bool fired = false;
    for (;;) {
      if (pending) {
        if (!jpeg::write_record(segments, jpeg::kSegment, segment.data(), segment.size())) break;
        pending = false;
        fired = true;
      }
      auto in = bytes.peek(bytes.available());
      if (in.empty()) break;
      const std::size_t used = take(in.first_data(), in.first_size(), segments, entropy);
      if (used == 0) break;
      bytes.release(used);
      fired = true;
    }
    return fired;
  }

 private:
  /// Takes bytes from p[0..n) while the rings have room; returns how many it took.
  std::size_t take(const std::uint8_t* p, std::size_t n, dfg::Out<std::int32_t>& segments,
                   dfg::Out<std::int16_t>& entropy) {
    std::size_t i = 0;
    while (i < n && !pending) {
      if (state == State::kEntropy) {  // a run of data bytes up to the next 0xFF
        const void* ff = std::memchr(p + i, 0xFF, n - i);
        const std::size_t run = ff ? static_cast<std::size_t>(
                                         static_cast<const std::uint8_t*>(ff) - (p + i))
                                   : n - i;
        auto out = entropy.reserve(run);
        const std::size_t k = out.size();
        std::int16_t* a = out.first_data();
        const std::size_t k1 = out.first_size();
        for (std::size_t j = 0; j < k1; ++j) a[j] = p[i + j];
        std::int16_t* b = out.second_data();
        for (std::size_t j = k1; j < k; ++j) b[j - k1] = p[i + j];
        entropy.commit(k);
        i += k;
        if (k < run) break;  // the ring is full
        if (i < n) {         // the 0xFF
          state = State::kEntropyFF;
          ++i;
        }
        continue;
      }
      if (state == State::kPayload) {
        const std::size_t k = std::min(n - i, 1 + length - segment.size());
        segment.insert(segment.end(), p + i, p + i + k);
        i += k;
        if (segment.size() == 1 + length) on_segment();
        continue;
      }
      // One byte of a marker: room for the records it may give.
      if (entropy.room() < 1 || segments.room() < 2) break;
      byte(p[i++], segments, entropy);
    }
    return i;
  }

  void byte(std::uint8_t b, dfg::Out<std::int32_t>& segments, dfg::Out<std::int16_t>& entropy) {
    switch (state) {
      case State::kFF:
        if (b != 0xFF) jpeg::corrupt("expected a marker, found byte " + std::to_string(b));
        state = State::kCode;
        break;
      case State::kCode:
        if (b != 0xFF) on_marker(b, segments);
        break;
      case State::kLengthHigh:
        length = std::size_t{b} << 8;
        state = State::kLengthLow;
        break;
      case State::kLengthLow:
        length |= b;
        if (length < 2) jpeg::corrupt("segment length " + std::to_string(length));
        length -= 2;
        segment.assign(1, marker);
        state = State::kPayload;
        if (length == 0) on_segment();
        break;
      case State::kEntropyFF:
        if (b == 0x00) {  // a stuffed 0xFF data byte
          entropy.push(0xFF);
          state = State::kEntropy;
        } else if (b >= 0xD0 && b <= 0xD7) {
          entropy.push(jpeg::kRestartMarker);
          state = State::kEntropy;
        } else if (b != 0xFF) {  // 0xFF 0xFF is fill
          entropy.push(jpeg::kEndOfScan);
          on_marker(b, segments);
        }
        break;
      case State::kPayload:
      case State::kEntropy: break;  // taken in runs by take()
    }
  }

  void on_marker(std::uint8_t code, dfg::Out<std::int32_t>& segments) {
    marker = code;
    if (code == 0xD8) {  // SOI
      state = State::kFF;
    } else if (code == 0xD9) {  // EOI: the next byte starts the next file
      jpeg::write_record(segments, jpeg::kEndOfImage, nullptr, 0);
      state = State::kFF;
    } else if (code >= 0xD0 && code <= 0xD7) {
      jpeg::corrupt("RST marker outside a scan");
    } else {
      state = State::kLengthHigh;
    }
  }

  /// The segment is complete: it goes out (when its ring has room) if the decoder needs it.
  void on_segment() {
    const bool wanted =
        marker == 0xDB || marker == 0xC4 || marker == 0xDD || marker == 0xDA ||
        (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC);
    pending = wanted;
    state = marker == 0xDA ? State::kEntropy : State::kFF;  // the scan's data follows SOS
  }
};
