# CUDA architectures: -DCMAKE_CUDA_ARCHITECTURES=...; by default the build machine's GPU,
# else 90 (H100, H200).
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE dfg_gpu_caps RESULT_VARIABLE dfg_smi_status ERROR_QUIET)
  if(dfg_smi_status EQUAL 0 AND dfg_gpu_caps MATCHES "^([0-9]+)\\.([0-9]+)")
    set(CMAKE_CUDA_ARCHITECTURES "$${CMAKE_MATCH_1}$${CMAKE_MATCH_2}")
  else()
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
endif()
