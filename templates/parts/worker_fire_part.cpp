$m$.at(j, k);
$m$.actor.fire($args$);
