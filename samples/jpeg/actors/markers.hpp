// The marker reader: splits a file's bytes into segments (DQT, DHT, SOF, DRI, SOS, each a record
// to the Huffman decoder) and the entropy-coded data (its bytes on a ring of int16, 0xFF00
// unstuffed, RSTn and the marker after the scan as negative values). Each firing of the static
// source brings `file_bytes` bytes: one file, then zeros up to the token's end, which it skips.
#pragma once

#include <cstdint>
#include <vector>

#include "dfg/ports.hpp"
#include "records.hpp"

struct Markers {
  int file_bytes = 0;

  enum class State {
    kFF,
    kCode,
    kLengthHigh,
    kLengthLow,
    kPayload,
    kEntropy,
    kEntropyFF,
    kPadding
  };
  State state = State::kFF;
  std::int64_t taken = 0;  // bytes taken of the current token
  int marker = 0;
  std::size_t length = 0;             // of the segment's payload
  std::vector<std::int32_t> segment;  // [marker, payload bytes...]

  bool step(dfg::In<std::uint8_t> bytes, dfg::Out<std::int32_t> segments,
            dfg::Out<std::int16_t> entropy) {
    bool fired = false;
    while (bytes.available() > 0 && entropy.room() >= 1 && segments.room() >= 3) {
      // The byte that completes a segment gives its record: wait for room for all of it.
      if (state == State::kPayload && segment.size() == length &&
          segments.room() < 2 + segment.size() + 1)
        break;
      take(bytes.pop(), segments, entropy);
      fired = true;
    }
    return fired;
  }

 private:
  void take(std::uint8_t b, dfg::Out<std::int32_t>& segments, dfg::Out<std::int16_t>& entropy) {
    switch (state) {
      case State::kPadding: break;
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
        if (length == 0) on_segment(segments);
        break;
      case State::kPayload:
        segment.push_back(b);
        if (segment.size() == 1 + length) on_segment(segments);
        break;
      case State::kEntropy:
        if (b == 0xFF)
          state = State::kEntropyFF;
        else
          entropy.push(b);
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
    }
    if (++taken == file_bytes) {
      if (state != State::kPadding) jpeg::corrupt("the file ends before its EOI marker");
      taken = 0;
      state = State::kFF;
    }
  }

  void on_marker(std::uint8_t code, dfg::Out<std::int32_t>& segments) {
    marker = code;
    if (code == 0xD8) {  // SOI
      state = State::kFF;
    } else if (code == 0xD9) {  // EOI
      jpeg::write_record(segments, jpeg::kEndOfImage, nullptr, 0);
      state = State::kPadding;
    } else if (code >= 0xD0 && code <= 0xD7) {
      jpeg::corrupt("RST marker outside a scan");
    } else {
      state = State::kLengthHigh;
    }
  }

  void on_segment(dfg::Out<std::int32_t>& segments) {
    const bool wanted =
        marker == 0xDB || marker == 0xC4 || marker == 0xDD || marker == 0xDA ||
        (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC);
    if (wanted) jpeg::write_record(segments, jpeg::kSegment, segment.data(), segment.size());
    state = marker == 0xDA ? State::kEntropy : State::kFF;  // the scan's data follows SOS
  }
};
