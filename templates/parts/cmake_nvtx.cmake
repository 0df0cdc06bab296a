# NVTX ranges around firings and transfers, for Nsight Systems.
target_compile_definitions(app PRIVATE DFG_ENABLE_NVTX=1)
