$m$.set_up(run.runtime_params, {$elements$}, $q$, false);  // a call each
