inline constexpr ::std::int64_t $name$_ = $value$;
