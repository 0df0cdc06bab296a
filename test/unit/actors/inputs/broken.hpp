// A header Clang rejects: a type error, and a warning that dfgc does not forward.
#pragma once

struct Broken {
  void fire(const float* a) {
    int unused = 0;
    const char* text = a;
  }
};
