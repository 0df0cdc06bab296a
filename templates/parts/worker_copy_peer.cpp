// $comment$
items.copy_peer($entry$, $stream$, $dst$, $dst_device$, $src$, $src_device$);
