// Its mapped colours: a cycle is released to the cpus once finished, kernels included.
