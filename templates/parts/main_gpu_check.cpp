/// The GPUs each host's PEs use (spec name, CUDA device ordinal), in kHosts order.
$tables$constexpr std::span<const dfg::mpi::GpuUse> kGpus[] = {$spans$};

/// "" when every GPU of `host` is a CUDA device of this machine, else the reason.
std::string gpu_error(int host) {
  const std::span<const dfg::mpi::GpuUse> gpus = kGpus[host];
  if (gpus.empty()) return {};
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  return dfg::mpi::gpu_ordinals_error(gpus, count);
}

