  ::std::int64_t $name$_ = $value$;
