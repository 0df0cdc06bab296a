#pragma once
#include <cstdint>
#include <string>

#include <dfg/bounded.hpp>

// Each class differs from the spec's struct of its name in one way.
struct Renamed {
  float time;
  int chan;
};
struct Retyped {
  float time;
  float channel;
};
struct Short {
  float time;
};
struct Long {
  float time;
  int channel;
  int extra;
};
struct Owning {
  float time;
  std::string label;
};
struct alignas(16) Aligned {
  float time;
  int channel;
};
#pragma pack(push, 1)
struct Packed {
  std::uint8_t flag;
  float time;
};
#pragma pack(pop)

struct Source {
  void fire(Renamed* a, Retyped* b, Short* c, Long* d, Owning* e, Aligned* f, Packed* g) {
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g;
  }
};

struct Sink {
  void fire(const Renamed* a, const Retyped* b, const Short* c, const Long* d, const Owning* e,
            const Aligned* f, const Packed* g) {
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g;
  }
};

namespace rx {
struct Pair {
  std::uint16_t a;
  std::uint8_t b;
};
}  // namespace rx

// Pointers to the wrong element types, and a bounded list of pairs.
struct PairSource {
  void fire(float* o, dfg::Bounded<rx::Pair> list) { (void)o, (void)list; }
};
struct PairSink {
  void fire(const rx::Pair* i, dfg::Bounded<const std::uint16_t> list) { (void)i, (void)list; }
};
