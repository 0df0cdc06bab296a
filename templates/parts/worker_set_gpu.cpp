$m$.set_gpu(compute_, $d$);
