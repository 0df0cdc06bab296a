// A header that includes a file that does not exist: Clang stops there.
#pragma once

#include "no_such_file.hpp"

struct Fatal {
  void fire(const float* a) {}
};
