#pragma once

struct Work {
  void fire(const float* a) { (void)a; }
};
