storage_.emplace_back($dev$"$name$", $bytes$, $slots$$lengths$);  // colour $index$
