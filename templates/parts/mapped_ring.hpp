/// $edge$: $from$ -> $to$, $capacity$ elements ($how$)
inline dfg::MappedRing<$elem$>& $ident$() {
  static dfg::MappedRing<$elem$> ring("$edge$", $capacity$);
  return ring;
}
