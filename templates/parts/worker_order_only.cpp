// $comment$: order only, its ring is in mapped memory (no copy)

