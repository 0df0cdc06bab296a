//   $stream$ in cycle c after $after$ in cycle c - $cycles$ ($colour$)
