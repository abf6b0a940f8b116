#pragma once
// FUZZ_CHECK — a property a harness asserts. A violation prints the condition and aborts, which
// libFuzzer reports as a crash and the replay test as a failure. Unlike assert() it stays active
// under NDEBUG, so the optimised CI build checks the same properties.

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            std::fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond);               \
            std::abort();                                                                                    \
        }                                                                                                    \
    } while (false)

// A JSON value as text for a diagnosis; invalid UTF-8 in strings is replaced instead of throwing.
template <typename Json> std::string fuzzDump(const Json &value)
{
    return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}
