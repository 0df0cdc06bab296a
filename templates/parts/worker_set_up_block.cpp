$m$.set_up(run.runtime_params, {$elements$}, $q$, true);  // in one call
