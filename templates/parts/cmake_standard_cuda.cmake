# C++20 for both languages, as compile options: CMake 3.25 does not know nvcc's C++20
# flag, and it would give CUDA sources the CXX_STANDARD otherwise. One CUDA runtime, shared.
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)