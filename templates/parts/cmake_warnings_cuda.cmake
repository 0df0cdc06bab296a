$$<$$<COMPILE_LANGUAGE:CXX>:-std=c++20 -Wall -Wextra>
$$<$$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall,-Wextra>