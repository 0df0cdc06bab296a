// Actors whose state cannot move with them: save without restore, a save that is not const,
// a restore that takes the state by value.
#pragma once

#include <dfg/state.hpp>

struct SaveOnly {
  int sum = 0;
  void fire(const float* a, float* b) { b[0] = a[0]; }
  void save(dfg::State& s) const { s.put(sum); }
};

struct SaveNotConst {
  int sum = 0;
  void fire(const float* a, float* b) { b[0] = a[0]; }
  void save(dfg::State& s) { s.put(sum); }
  void restore(const dfg::State& s) { sum = s.get<int>(); }
};

struct RestoreByValue {
  int sum = 0;
  void fire(const float* a, float* b) { b[0] = a[0]; }
  void save(dfg::State& s) const { s.put(sum); }
  void restore(dfg::State s) { sum = s.get<int>(); }
};
