# daemonscope_test(NAME SOURCES... LIBS ...) — one QtTest executable = one CTest test.
# GUI tests run offscreen; every test gets the source tree in DAEMONSCOPE_SOURCE_DIR.
function(daemonscope_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} Qt6::Test daemonscope::flags)
  daemonscope_qt_defaults(${name})
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;DAEMONSCOPE_SOURCE_DIR=${PROJECT_SOURCE_DIR};DAEMONSCOPE_BINARY=$<TARGET_FILE:daemonscope>")
  target_compile_definitions(${name} PRIVATE DAEMONSCOPE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endfunction()
