// $comment$
items.copy($entry$, $stream$, $dst$, $src$);
