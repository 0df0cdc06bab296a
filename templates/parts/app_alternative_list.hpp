inline constexpr std::size_t k$what$$a$[] = {$names$};
