constexpr std::int64_t max(std::int64_t a, std::int64_t b) { return a < b ? b : a; }
