// Actor classes the generated code cannot use, one per case of this directory: each has the
// ports of Work (in a, out b).
#pragma once

struct FireDeleted {
  void fire(const float* a, float* b) = delete;
};

struct FireRvalue {
  void fire(const float* a, float* b) && { b[0] = a[0]; }
};

struct FireUndefined {
  void fire(const float* a, float* b);
};

struct InitUndefined {
  void init();
  void fire(const float* a, float* b) { b[0] = a[0]; }
};

struct FireOutOfLine {
  void fire(const float* a, float* b);
};

void FireOutOfLine::fire(const float* a, float* b) { b[0] = a[0]; }

// Out of line but inline: fine.
struct FireInline {
  void fire(const float* a, float* b);
};

inline void FireInline::fire(const float* a, float* b) { b[0] = a[0]; }

struct NoDefault {
  explicit NoDefault(int scale) : scale(scale) {}
  void fire(const float* a, float* b) { b[0] = a[0] * scale; }
  int scale;
};

struct RefMember {
  float& gain;
  void fire(const float* a, float* b) { b[0] = a[0] * gain; }
};

struct Abstract {
  virtual void step() = 0;
  void fire(const float* a, float* b) { b[0] = a[0]; }
};

class PrivateDtor {
 public:
  void fire(const float* a, float* b) { b[0] = a[0]; }

 private:
  ~PrivateDtor() = default;
};

// Data members narrower than the values the specs give them.
struct Narrow {
  char nb_loop;
  unsigned count;
  float scale;
  void fire(const float* a, float* b) { b[0] = a[0] + nb_loop + count + scale; }
};

struct FireConsteval {
  consteval void fire(const float* a, float* b) { b[0] = a[0]; }
};

struct CopyBase {
  void fire(const float* a, float* b) { b[0] = a[0]; }
};
struct ScaleBase {
  void fire(const float* a, float* b) { b[0] = 2 * a[0]; }
};
struct FireAmbiguous : CopyBase, ScaleBase {};

// finish with a parameter that is not the context.
struct FinishWithInt {
  void fire(const float* a, float* b) { b[0] = a[0]; }
  void finish(int) {}
};
