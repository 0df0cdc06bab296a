storage_.emplace_back($dev$"$name$", $bytes$, $slots$$mapped$$lengths$);  // colour $index$
