$m$ = dfg::$type$($dev$"$name$", bytes_$t$(params), $d$);
