$m$.fire_part(j, k, $args$);
