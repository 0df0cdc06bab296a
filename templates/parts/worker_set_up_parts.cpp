$m$.set_up(run.runtime_params, {$elements$}, $q$, false$batch$);  // a call each
