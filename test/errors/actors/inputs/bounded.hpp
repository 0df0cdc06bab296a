#pragma once
#include <cstdint>
#include "dfg/bounded.hpp"
struct Src { void fire(std::uint8_t* o) { (void)o; } };
struct Work { void fire(dfg::Bounded<const std::uint8_t> a, dfg::Bounded<const std::uint8_t> b) { (void)a, (void)b; } };
struct Sink { void fire(dfg::Bounded<const float> i) { (void)i; } };
