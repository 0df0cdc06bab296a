// The Huffman decoder: reads the segments (quantisation and Huffman tables, the frame, the restart
// interval, the scan header) and decodes the scan's entropy-coded data into 8x8 blocks of
// coefficients, one record per block with its component and place. The rate is the data's: an
// MCU's blocks go out once all its bits have come in; until then the MCU is undone and waits.
// Baseline only (8-bit samples, Huffman, sequential), interleaved or one component a scan.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "dfg/ports.hpp"
#include "records.hpp"

struct Huffman {
  /// A canonical code (JPEG F.2.2.3): codes of length l run up to maxcode[l], the symbol of code c
  /// of length l is symbols[c + offset[l]]. look: for the codes of up to kLook bits, the symbol
  /// and the length by the next kLook bits of the data (length 0: a longer code).
  static constexpr int kLook = 9;
  struct Table {
    bool defined = false;
    std::array<std::int32_t, 18> maxcode{};
    std::array<std::int32_t, 17> offset{};
    std::array<std::uint8_t, 256> symbols{};
    std::array<std::uint16_t, 1 << kLook> look{};  // length << 8 | symbol
  };
  struct Component {
    int id = 0, h = 1, v = 1, tq = 0;
    int dc = 0, ac = 0;     // table selectors of the current scan
    std::int32_t pred = 0;  // DC prediction
  };

  std::array<std::array<std::int32_t, 64>, 4> quant{};  // natural order
  std::array<bool, 4> quant_defined{};
  std::array<Table, 4> dc_tables, ac_tables;
  std::vector<Component> comps;
  int width = 0, height = 0, hmax = 1, vmax = 1;
  int restart_interval = 0;
  bool frame_sent = false;

  // The scan being decoded.
  bool in_scan = false;
  std::vector<int> scan;           // indices into comps
  std::int64_t mcus = 0, mcu = 0;  // MCUs in the scan, MCUs decoded
  int mcus_per_row = 0;
  bool expect_restart = false;
  std::uint64_t bits = 0;  // bit buffer: its low `nbits` bits not yet read, the oldest highest
  int nbits = 0;
  bool at_marker = false;  // the data reached a marker: zeros follow, as in libjpeg

  std::vector<std::int32_t> rec;

  bool step(dfg::In<std::int32_t> segments, dfg::In<std::int16_t> entropy,
            dfg::Out<std::int32_t> coefs) {
    bool fired = false;
    for (;;) {
      if (in_scan) {
        if (!decode(entropy, coefs)) break;
      } else {
        if (coefs.room() < jpeg::kMaxFrameRecord || !jpeg::read_record(segments, rec)) break;
        if (rec[0] == jpeg::kEndOfImage) {
          jpeg::write_record(coefs, jpeg::kEndOfImage, nullptr, 0);
          frame_sent = false;
          restart_interval = 0;
        } else {
          segment(coefs);
        }
      }
      fired = true;
    }
    return fired;
  }

 private:
  // --- segments ---
  void segment(dfg::Out<std::int32_t>& coefs) {
    const int marker = rec[1];
    const std::int32_t* p = rec.data() + 2;
    const std::size_t n = rec.size() - 2;
    auto need = [&](std::size_t k) {
      if (k > n) jpeg::corrupt("short segment of marker " + std::to_string(marker));
    };
    if (marker == 0xDB) {  // DQT
      for (std::size_t i = 0; i < n;) {
        const int pq = p[i] >> 4, tq = p[i] & 15;
        if (pq != 0 || tq > 3) jpeg::corrupt("quantisation table of 16 bits or number > 3");
        need(i + 65);
        for (int k = 0; k < 64; ++k) quant[tq][jpeg::kZigzag[k]] = p[i + 1 + k];
        quant_defined[tq] = true;
        i += 65;
      }
    } else if (marker == 0xC4) {  // DHT
      for (std::size_t i = 0; i < n;) {
        need(i + 17);
        const int tc = p[i] >> 4, th = p[i] & 15;
        if (tc > 1 || th > 3) jpeg::corrupt("Huffman table class or number out of range");
        Table& t = tc == 0 ? dc_tables[th] : ac_tables[th];
        t = Table{};
        std::size_t total = 0;
        for (int l = 1; l <= 16; ++l) total += static_cast<std::size_t>(p[i + l]);
        need(i + 17 + total);
        if (total > 256) jpeg::corrupt("a Huffman table of more than 256 symbols");
        std::size_t k = 0;
        std::int32_t code = 0;
        for (int l = 1; l <= 16; ++l) {
          const int count = p[i + l];
          t.offset[l] = static_cast<std::int32_t>(k) - code;
          for (int c = 0; c < count; ++c, ++k, ++code) {
            if (code >= (1 << l)) jpeg::corrupt("a Huffman table of too many codes");
            t.symbols[k] = static_cast<std::uint8_t>(p[i + 17 + k]);
            if (l <= kLook)  // every kLook-bit string that starts with the code
              for (int fill = 0; fill < 1 << (kLook - l); ++fill)
                t.look[static_cast<std::size_t>(code << (kLook - l) | fill)] =
                    static_cast<std::uint16_t>(l << 8 | t.symbols[k]);
          }
          t.maxcode[l] = count > 0 ? code - 1 : -1;
          code <<= 1;
        }
        t.maxcode[17] = 0x7FFFFFFF;  // ends the slow path's search
        t.defined = true;
        i += 17 + total;
      }
    } else if (marker == 0xDD) {  // DRI
      need(2);
      restart_interval = p[0] << 8 | p[1];
    } else if (marker == 0xC0 || marker == 0xC1) {  // SOF0, SOF1: baseline, extended Huffman
      need(6);
      if (p[0] != 8) jpeg::corrupt("samples of " + std::to_string(p[0]) + " bits; only 8");
      height = p[1] << 8 | p[2];
      width = p[3] << 8 | p[4];
      const int nc = p[5];
      if (width == 0 || height == 0) jpeg::corrupt("an image of size 0");
      if (nc != 1 && nc != 3)
        jpeg::corrupt(std::to_string(nc) + " components; only 1 (grey) or 3 (YCbCr)");
      need(6 + 3 * static_cast<std::size_t>(nc));
      comps.assign(static_cast<std::size_t>(nc), Component{});
      hmax = vmax = 1;
      for (int c = 0; c < nc; ++c) {
        Component& k = comps[static_cast<std::size_t>(c)];
        k.id = p[6 + 3 * c];
        k.h = p[7 + 3 * c] >> 4;
        k.v = p[7 + 3 * c] & 15;
        k.tq = p[8 + 3 * c] & 3;
        if (k.h < 1 || k.h > 2 || k.v < 1 || k.v > 2) jpeg::corrupt("sampling factors above 2");
        hmax = std::max(hmax, k.h);
        vmax = std::max(vmax, k.v);
      }
    } else if (marker >= 0xC2 && marker <= 0xCF) {
      jpeg::corrupt("frame of marker " + std::to_string(marker) + ": only baseline (SOF0, SOF1)");
    } else if (marker == 0xDA) {  // SOS
      start_scan(p, n, coefs);
    }
  }

  void start_scan(const std::int32_t* p, std::size_t n, dfg::Out<std::int32_t>& coefs) {
    if (comps.empty()) jpeg::corrupt("a scan before the frame");
    const std::size_t ns = n > 0 ? static_cast<std::size_t>(p[0]) : 0;
    if (ns < 1 || ns > comps.size() || n < 1 + 2 * ns + 3) jpeg::corrupt("bad scan header");
    scan.clear();
    for (std::size_t s = 0; s < ns; ++s) {
      std::size_t c = 0;
      while (c < comps.size() && comps[c].id != p[1 + 2 * s]) ++c;
      if (c == comps.size()) jpeg::corrupt("a scan of an unknown component");
      comps[c].dc = p[2 + 2 * s] >> 4;
      comps[c].ac = p[2 + 2 * s] & 15;
      if (comps[c].dc > 3 || comps[c].ac > 3 || !dc_tables[comps[c].dc].defined ||
          !ac_tables[comps[c].ac].defined)
        jpeg::corrupt("a scan whose Huffman table is not defined");
      comps[c].pred = 0;
      scan.push_back(static_cast<int>(c));
    }
    if (!frame_sent) send_frame(coefs);
    if (ns == 1) {  // one component: its blocks in raster order, not padded to MCUs
      const Component& k = comps[static_cast<std::size_t>(scan[0])];
      const int cw = (width * k.h + hmax - 1) / hmax, ch = (height * k.v + vmax - 1) / vmax;
      mcus_per_row = (cw + 7) / 8;
      mcus = std::int64_t{mcus_per_row} * ((ch + 7) / 8);
    } else {
      mcus_per_row = (width + 8 * hmax - 1) / (8 * hmax);
      mcus = std::int64_t{mcus_per_row} * ((height + 8 * vmax - 1) / (8 * vmax));
    }
    mcu = 0;
    bits = 0;
    nbits = 0;
    at_marker = false;
    expect_restart = false;
    in_scan = true;
  }

  void send_frame(dfg::Out<std::int32_t>& coefs) {
    std::vector<std::int32_t> f = {width, height, static_cast<std::int32_t>(comps.size())};
    for (const Component& k : comps) {
      f.push_back(k.h);
      f.push_back(k.v);
    }
    for (const Component& k : comps) {
      if (!quant_defined[static_cast<std::size_t>(k.tq)])
        jpeg::corrupt("a component's quantisation table is not defined");
      f.insert(f.end(), quant[static_cast<std::size_t>(k.tq)].begin(),
               quant[static_cast<std::size_t>(k.tq)].end());
    }
    jpeg::write_record(coefs, jpeg::kFrame, f.data(), f.size());  // room checked by step
    frame_sent = true;
  }

  // --- entropy-coded data ---
  // A reader over the tokens peeked this step. The bit buffer is filled a byte at a time up to 56
  // bits, up to a marker (which it leaves in the ring); out of tokens before a marker, a read says
  // so (starved) and the MCU is undone.
  struct Reader {  // the decoder's bit buffer in locals while it decodes, stored back at the end
    dfg::RingSpan<const std::int16_t> data;
    std::size_t pos;
    std::uint64_t bits;
    int nbits;
    bool at_marker;
    bool starved = false;

    void fill() {
      while (nbits <= 56 && pos < data.size()) {
        const std::int16_t b = data[pos];
        if (b < 0) {
          at_marker = true;
          break;
        }
        bits = bits << 8 | static_cast<std::uint64_t>(b);
        nbits += 8;
        ++pos;
      }
    }
    /// At least `n` (at most 25) bits in the buffer; false when the data is not there yet.
    bool need(int n) {
      if (nbits >= n) return true;
      if (!at_marker) fill();
      if (nbits >= n) return true;
      if (!at_marker) {
        starved = true;
        return false;
      }
      while (nbits < n) {  // past the marker: zeros
        bits <<= 8;
        nbits += 8;
      }
      return true;
    }
    int peek(int n) const {
      return static_cast<int>((bits >> (nbits - n)) & ((std::uint64_t{1} << n) - 1));
    }
    int receive(int s) {  // s bits, then the sign extension of the JPEG standard (F.12)
      if (s == 0 || !need(s)) return 0;
      const int v = peek(s);
      nbits -= s;
      return v < (1 << (s - 1)) ? v - (1 << s) + 1 : v;
    }
    int symbol(const Huffman::Table& t) {
      if (!need(16)) return 0;
      const std::uint16_t hit = t.look[static_cast<std::size_t>(peek(kLook))];
      if (hit != 0) {
        nbits -= hit >> 8;
        return hit & 0xFF;
      }
      int l = kLook + 1;
      std::int32_t code = peek(l);
      while (code > t.maxcode[static_cast<std::size_t>(l)]) {
        ++l;
        code = peek(l < 16 ? l : 16);
      }
      if (l > 16) jpeg::corrupt("a Huffman code of no symbol");
      nbits -= l;
      return t.symbols[static_cast<std::size_t>(code + t.offset[static_cast<std::size_t>(l)])];
    }
  };

  bool block(Reader& r, Component& k, std::int32_t* out) {
    std::fill(out, out + 64, 0);
    const int s = r.symbol(dc_tables[static_cast<std::size_t>(k.dc)]);
    const int diff = r.receive(s);
    if (r.starved) return false;
    out[0] = k.pred + diff;
    for (int i = 1; i < 64;) {
      const int rs = r.symbol(ac_tables[static_cast<std::size_t>(k.ac)]);
      if (r.starved) return false;
      const int run = rs >> 4, size = rs & 15;
      if (size == 0) {
        if (run != 15) break;  // end of block
        i += 16;
        continue;
      }
      i += run;
      if (i > 63) jpeg::corrupt("a coefficient past the block's end");
      out[jpeg::kZigzag[i]] = r.receive(size);
      ++i;
    }
    if (r.starved) return false;
    k.pred = out[0];
    return true;
  }

  /// Decodes the MCUs whose data is there and room for whose blocks is there, each MCU's block
  /// records straight into the reserved slots of the output ring, committed when the MCU is
  /// whole; at the scan's end, takes the end-of-scan token. False if it could do nothing.
  bool decode(dfg::In<std::int16_t>& entropy, dfg::Out<std::int32_t>& coefs) {
    auto data = entropy.peek(entropy.available());
    Reader r{data, 0, bits, nbits, at_marker};
    bool progress = false;
    std::size_t blocks_per_mcu = 0;
    for (int c : scan)
      blocks_per_mcu += scan.size() == 1
                            ? 1
                            : static_cast<std::size_t>(comps[static_cast<std::size_t>(c)].h *
                                                       comps[static_cast<std::size_t>(c)].v);
    constexpr std::size_t kRecord = 2 + jpeg::kBlockPayload;
    std::int32_t rec_out[kRecord];
    rec_out[0] = jpeg::kBlock;
    rec_out[1] = static_cast<std::int32_t>(jpeg::kBlockPayload);
    while (mcu < mcus && coefs.room() >= blocks_per_mcu * kRecord) {
      if (expect_restart) {
        if (r.pos == data.size()) break;
        if (data[r.pos] != jpeg::kRestartMarker)
          jpeg::corrupt("expected an RST marker after MCU " + std::to_string(mcu));
        ++r.pos;
        r.bits = 0;
        r.nbits = 0;
        r.at_marker = false;
        for (Component& k : comps) k.pred = 0;
        expect_restart = false;
        progress = true;
      }
      // Undo point: the reader's state and the predictions.
      const std::size_t pos = r.pos;
      const std::uint64_t saved_bits = r.bits;
      const int saved_nbits = r.nbits;
      const bool saved_at_marker = r.at_marker;
      std::array<std::int32_t, 4> preds{};
      for (std::size_t c = 0; c < comps.size(); ++c) preds[c] = comps[c].pred;
      auto slots = coefs.reserve(blocks_per_mcu * kRecord);
      std::size_t b = 0;
      bool whole = true;
      const int mx = static_cast<int>(mcu % mcus_per_row),
                my = static_cast<int>(mcu / mcus_per_row);
      for (int c : scan) {
        Component& k = comps[static_cast<std::size_t>(c)];
        const int h = scan.size() == 1 ? 1 : k.h, v = scan.size() == 1 ? 1 : k.v;
        for (int y = 0; y < v && whole; ++y)
          for (int x = 0; x < h && whole; ++x, ++b) {
            rec_out[2] = c;
            rec_out[3] = mx * h + x;
            rec_out[4] = my * v + y;
            whole = block(r, k, rec_out + 5);
            if (whole) slots.sub(b * kRecord, kRecord).copy_from(rec_out);
          }
        if (!whole) break;
      }
      if (!whole) {  // the MCU's data is not all there: undo and wait
        r.pos = pos;
        r.starved = false;
        r.bits = saved_bits;
        r.nbits = saved_nbits;
        r.at_marker = saved_at_marker;
        for (std::size_t c = 0; c < comps.size(); ++c) comps[c].pred = preds[c];
        break;
      }
      coefs.commit(blocks_per_mcu * kRecord);
      ++mcu;
      progress = true;
      if (restart_interval > 0 && mcu % restart_interval == 0 && mcu < mcus) expect_restart = true;
    }
    bits = r.bits;
    nbits = r.nbits;
    at_marker = r.at_marker;
    if (mcu == mcus) {  // the scan is decoded: drop the rest up to the end-of-scan token
      bits = 0;
      nbits = 0;
      at_marker = false;
      while (r.pos < data.size() && data[r.pos] != jpeg::kEndOfScan) ++r.pos;
      if (r.pos < data.size()) {
        ++r.pos;
        in_scan = false;
        progress = true;
      }
    }
    entropy.release(r.pos);
    return progress || r.pos > 0;
  }
};
