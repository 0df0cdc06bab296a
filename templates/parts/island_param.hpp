$ident$_.$param$ = $value$;
