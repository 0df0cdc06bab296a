net_.start(*$m$, $entry$, j, $at$);
