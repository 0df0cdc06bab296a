s.$ident$_.$param$ = $value$;
