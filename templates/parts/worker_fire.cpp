$m$.at(j);
$m$.actor.fire($args$);
