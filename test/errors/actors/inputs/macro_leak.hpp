#pragma once
// Macros left defined after the classes: the generated code that includes this header names
// Producer and the namespace app after it.
struct Producer {
  void fire(float* o) { o[0] = 1.0f; }
};
struct Consumer {
  int nb_loop : 3;  // an actor param as a bit-field: 100 would read as -4
  void fire(const float* i) { (void)i; }
};
#define Producer Consumer
#define app zz
#define HELPER_OK 1
