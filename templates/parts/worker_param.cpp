$m$.actor.$param$ = $value$;
