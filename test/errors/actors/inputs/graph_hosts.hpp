// The host ends of graph_decisions.dfg.
#pragma once

struct HostEnds {
  void fire(float* o) const { for (int i = 0; i < 32; ++i) o[i] = 0; }
};
struct HostOne {
  void fire(const float* a) const { (void)a; }
};
struct HostSink {
  void fire(const float* a, const float* b, const float* c, const float* d) const { (void)a; (void)b; (void)c; (void)d; }
};
