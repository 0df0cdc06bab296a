$m$.fire(j, $args$);
