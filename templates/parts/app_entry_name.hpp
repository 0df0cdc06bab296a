  $ident$,  // $label$
