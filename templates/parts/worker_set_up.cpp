$m$.set_up(run.runtime_params, {$elements$});
