constexpr std::int64_t min(std::int64_t a, std::int64_t b) { return a < b ? a : b; }
