// A header whose class is never closed: the next header of the batch ends up inside it.
#pragma once

struct Unbalanced {
  void fire(const float* a) { (void)a; }
