  ::std::int64_t $name$ = $value$;
