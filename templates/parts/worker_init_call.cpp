$m$.actor.init($ctx$);
