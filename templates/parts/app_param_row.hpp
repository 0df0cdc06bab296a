    {"$name$", $value$$bounds$},
