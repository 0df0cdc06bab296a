#pragma once

struct Work {
  void fire(const float* a, const float* b) { (void)a, (void)b; }
};
