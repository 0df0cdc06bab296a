#pragma once
// Three filters that may migrate: one keeps history in a data member and has no save/restore (a
// move would lose it), one carries it with save/restore, one has only scratch and says so.
#include <dfg/context.hpp>
#include <dfg/state.hpp>

struct Band {
  int taps;  // the actor's param
  float history[4] = {};
  void fire(const float* a, float* b) {
    for (int i = 0; i < 16; ++i) b[i] = a[i] + history[i % 4];
    history[0] = a[15];
  }
};

struct SavedBand {
  int taps;
  float history[4] = {};
  void fire(const float* a, float* b) { b[0] = a[0] + history[0]; }
  void save(dfg::State& s) const { s.write(history, sizeof history); }
  void restore(const dfg::State& s) { s.read(history, sizeof history); }
};

struct ScratchBand {
  static constexpr bool dfg_stateless = true;
  int taps;
  float scratch[16] = {};
  void fire(const float* a, float* b) {
    for (int i = 0; i < 16; ++i) scratch[i] = a[i];
    for (int i = 0; i < 16; ++i) b[i] = scratch[i];
  }
};
