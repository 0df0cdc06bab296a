// The source and the sink around the actor under test in every case of this directory.
#pragma once

struct Source {
  void fire(float* o) { o[0] = 1.0f; }
};

struct Sink {
  void fire(const float* i) { (void)i; }
};
