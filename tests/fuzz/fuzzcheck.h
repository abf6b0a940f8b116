#pragma once
// FUZZ_CHECK — a property a harness asserts. A violation prints the condition and aborts, which
// libFuzzer reports as a crash and the replay test as a failure. Unlike assert() it stays active
// under NDEBUG, so the optimised CI build checks the same properties.

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            std::fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond);               \
            std::abort();                                                                                    \
        }                                                                                                    \
    } while (false)
