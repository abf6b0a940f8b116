#pragma once
// FUZZ_CHECK — a property a harness asserts. A violation prints the condition and aborts, which
// libFuzzer reports as a crash and the replay test as a failure. Unlike assert() it stays active
// under NDEBUG, so the optimised CI build checks the same properties.

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

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

// Whether some JSON object in `text` names a key twice. A DOM keeps only the last value of such
// a key while a streaming decoder sees both (Go's encoding/json merges them field by field), so
// properties that compare the two hold only for documents without repeated keys. False for text
// that is not JSON.
inline bool hasRepeatedKeys(std::string_view text)
{
    struct Keys : nlohmann::json_sax<nlohmann::json>
    {
        std::vector<std::set<std::string>> open;
        bool repeated = false;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t &) override { return true; }
        bool string(string_t &) override { return true; }
        bool binary(binary_t &) override { return true; }
        bool start_object(std::size_t) override
        {
            open.emplace_back();
            return true;
        }
        bool key(string_t &k) override
        {
            if (!open.back().insert(k).second)
                repeated = true;
            return !repeated; // the answer is known: stop
        }
        bool end_object() override
        {
            open.pop_back();
            return true;
        }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
        {
            return false;
        }
    } keys;
    nlohmann::json::sax_parse(text.begin(), text.end(), &keys, nlohmann::json::input_format_t::json, false);
    return keys.repeated;
}
