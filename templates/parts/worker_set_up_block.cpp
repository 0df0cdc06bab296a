$m$.set_up(run.runtime_params, {$elements$}, $q$, true$batch$);  // in one call
