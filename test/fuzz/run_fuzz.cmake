# Runs the parser fuzz target for a bounded time: cmake -D FUZZER=... -D CORPUS=dir -D SEEDS=a|b
# -P run_fuzz.cmake. CORPUS is emptied first; SEEDS are read only. Fails on any finding.
file(REMOVE_RECURSE ${CORPUS})
file(MAKE_DIRECTORY ${CORPUS})
string(REPLACE "|" ";" seeds "${SEEDS}")
execute_process(
  COMMAND ${FUZZER} -max_total_time=20 -timeout=5 -rss_limit_mb=2048 ${CORPUS} ${seeds}
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "parse_fuzz failed (status ${status}); the input that failed is in the "
                      "test's working directory (crash-*, timeout-*, leak-* or oom-*)")
endif()
