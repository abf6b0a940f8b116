# Warning and sanitizer flags shared by every Daemonscope target.
add_library(daemonscope_flags INTERFACE)
add_library(daemonscope::flags ALIAS daemonscope_flags)
target_compile_options(daemonscope_flags INTERFACE -Wall -Wextra -Wpedantic)
if(DAEMONSCOPE_WERROR)
  target_compile_options(daemonscope_flags INTERFACE -Werror)
  # GCC 12's middle-end flow warnings report false positives inside libstdc++'s std::string
  # when optimising (GCC bugs 105329, 105651, 106199): they stay visible but do not fail the build.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(daemonscope_flags INTERFACE -Wno-error=array-bounds -Wno-error=restrict
                           -Wno-error=stringop-overflow -Wno-error=stringop-overread -Wno-error=format-truncation)
  endif()
endif()
# The libraries are linked into the program module (a shared object, app/CMakeLists.txt), so
# they are position independent; GCC is told that their functions are not interposed, which
# keeps the inlining and direct calls of -fPIE code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(daemonscope_flags INTERFACE -fno-semantic-interposition)
endif()
if(DAEMONSCOPE_SANITIZE)
  target_compile_options(daemonscope_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                     -fno-sanitize-recover=undefined)
  target_link_options(daemonscope_flags INTERFACE -fsanitize=address,undefined)
endif()

# daemonscope_library(NAME ALIAS SOURCES...) — a static library whose include root is the
# repository root, so includes name their layer ("models/kube/objectmeta.h").
function(daemonscope_library name alias)
  add_library(${name} STATIC ${ARGN})
  add_library(daemonscope::${alias} ALIAS ${name})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE daemonscope::flags)
endfunction()

# Qt targets never convert from const char* implicitly.
function(daemonscope_qt_defaults target)
  target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
                                               QT_NO_URL_CAST_FROM_STRING QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
  set_target_properties(${target} PROPERTIES AUTOMOC ON AUTORCC ON)
endfunction()

# The fuzz preset (clang only): every Daemonscope target is compiled with libFuzzer's coverage
# instrumentation and ASan + UBSan (UB aborts, so libFuzzer reports it as a crash); only the
# harness executables in tests/fuzz link libFuzzer itself (-fsanitize=fuzzer).
option(DAEMONSCOPE_FUZZ "Build the libFuzzer harnesses in tests/fuzz (clang)" OFF)
if(DAEMONSCOPE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "DAEMONSCOPE_FUZZ needs clang with libFuzzer (cmake --preset fuzz)")
  endif()
  target_compile_options(daemonscope_flags INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                                     -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(daemonscope_flags INTERFACE -fsanitize=address,undefined)
endif()
