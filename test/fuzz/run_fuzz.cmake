# Runs a fuzz target for a bounded time: cmake -D FUZZER=... -D CORPUS=dir -D SEEDS=a|b
# [-D SEED_FILES=glob|glob] [-D DICT=file] -P run_fuzz.cmake. CORPUS is emptied first, then gets
# a copy of the files SEED_FILES matches (libFuzzer takes seeds by directory); SEEDS are read
# only; DICT is a libFuzzer dictionary. Fails on any finding.
file(REMOVE_RECURSE ${CORPUS})
file(MAKE_DIRECTORY ${CORPUS})
if(SEED_FILES)
  string(REPLACE "|" ";" globs "${SEED_FILES}")
  file(GLOB seed_files ${globs})
  file(COPY ${seed_files} DESTINATION ${CORPUS})
endif()
string(REPLACE "|" ";" seeds "${SEEDS}")
set(options -max_total_time=20 -timeout=5 -rss_limit_mb=2048)
if(DICT)
  list(APPEND options -dict=${DICT})
endif()
execute_process(
  COMMAND ${FUZZER} ${options} ${CORPUS} ${seeds}
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  get_filename_component(name ${FUZZER} NAME)
  message(FATAL_ERROR "${name} failed (status ${status}); the input that failed is in the "
                      "test's working directory (crash-*, timeout-*, leak-* or oom-*)")
endif()
