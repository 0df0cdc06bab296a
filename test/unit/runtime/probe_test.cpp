#include "dfg/probe.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

TEST_CASE("probe: records a slice on the entry's track and a time in the stats", "[probe]") {
  dfg::Tracer tracer(0, true);
  const int track = tracer.add_track("A.cpu");
  dfg::Stats stats(4, 0);
  stats.add_pe("A.cpu");
  stats.add_entry("firing", "p (Producer)", "A.cpu");
  stats.add_entry("firing", "c (Consumer)", "A.cpu");
  dfg::Probes probes(tracer, &stats);
  probes.add(track, "p (Producer)", "fire");
  probes.add(track, "c (Consumer)", "fire");
  CHECK(probes.on());
  {
    dfg::Probe probe(probes, 1, 7);
  }
  CHECK(tracer.event_count() == 1);
  std::ostringstream out;
  tracer.write(out);
  CHECK(out.str().find(R"x("name":"c (Consumer)","cat":"fire")x") != std::string::npos);
  CHECK(out.str().find(R"x("args":{"iteration":7})x") != std::string::npos);
  const dfg::Stats::Summary s = stats.summary();
  CHECK(s.entries[0].count == 0);
  CHECK(s.entries[1].count == 1);
}

TEST_CASE("probe: with tracing and stats off nothing is recorded", "[probe]") {
  dfg::Tracer tracer(0, false);
  dfg::Probes probes(tracer, nullptr);
  probes.add(tracer.add_track("A.cpu"), "p (Producer)", "fire");
  CHECK_FALSE(probes.on());
  {
    dfg::Probe probe(probes, 0, 0);
  }
  CHECK(tracer.event_count() == 0);
}
