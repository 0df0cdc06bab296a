    {"$kind$", "$name$", "$where$", $track$, $first_cycle$, $bytes$, $profile$, $at$, $step$},
