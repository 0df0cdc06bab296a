Sections of CMakeLists.txt (compiler/codegen/cmake.cpp):
the pieces a printer repeats or chooses, by name. A line `@@ name` begins a section; the
newline before the next `@@` line or the file's end is not part of it (codegen/templates.hpp).

@@ cmake_actor_dir
"$${CMAKE_CURRENT_SOURCE_DIR}/$${$var$}"
@@ cmake_actor_dir_var
set($var$ $dir$)
@@ cmake_bracket
[$equals$[$text$]$equals$]
@@ cmake_cuda_architectures
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

@@ cmake_find_cuda
find_package(CUDAToolkit REQUIRED)

@@ cmake_find_mpi
# One MPI rank per host: mpirun -np $hosts$ app
find_package(MPI REQUIRED COMPONENTS CXX)

@@ cmake_nvtx
# NVTX ranges around firings and transfers, for Nsight Systems.
target_compile_definitions(app PRIVATE DFG_ENABLE_NVTX=1)

@@ cmake_standard_cuda
# C++20 for both languages, as compile options: CMake 3.25 does not know nvcc's C++20
# flag, and it would give CUDA sources the CXX_STANDARD otherwise. One CUDA runtime, shared.
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
@@ cmake_standard_cxx
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
@@ cmake_warnings_cuda
$$<$$<COMPILE_LANGUAGE:CXX>:-std=c++20 -Wall -Wextra>
$$<$$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall,-Wextra>
@@ cmake_warnings_cxx
-Wall -Wextra
