# daemonscope_test(NAME SOURCES... LIBS ...) — one QtTest executable = one CTest test.
# GUI tests run offscreen; every test gets the source tree in DAEMONSCOPE_SOURCE_DIR.
function(daemonscope_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} Qt6::Test daemonscope::flags)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}) # tests/support/ and the layers
  daemonscope_qt_defaults(${name})
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # Each test gets its own XDG folders, so windows closed by tests never write the user's
  # settings or history database.
  set(xdg ${CMAKE_CURRENT_BINARY_DIR}/xdg/${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;DAEMONSCOPE_SOURCE_DIR=${PROJECT_SOURCE_DIR};DAEMONSCOPE_BINARY=$<TARGET_FILE:daemonscope>;XDG_CONFIG_HOME=${xdg}/config;XDG_DATA_HOME=${xdg}/data;XDG_CACHE_HOME=${xdg}/cache")
  target_compile_definitions(${name} PRIVATE DAEMONSCOPE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endfunction()
