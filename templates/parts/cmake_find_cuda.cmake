find_package(CUDAToolkit REQUIRED)
