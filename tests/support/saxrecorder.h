#pragma once
// A JSON SAX handler that writes down every event it gets, one line each, so that two readers
// of the same text (kube::parseJsonSax and nlohmann's Json::sax_parse) compare event for event.

#include "models/kube/gojson.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace testsupport {

class SaxRecorder : public nlohmann::json_sax<kube::Json>
{
public:
    std::vector<std::string> events;
    bool failed = false; // parse_error was called

    bool null() override { return add("null"); }
    bool boolean(bool v) override { return add(v ? "true" : "false"); }
    bool number_integer(number_integer_t v) override { return add("int " + std::to_string(v)); }
    bool number_unsigned(number_unsigned_t v) override { return add("uint " + std::to_string(v)); }
    bool number_float(number_float_t v, const string_t &text) override
    {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        return add("float " + std::to_string(bits) + " " + text);
    }
    bool string(string_t &v) override { return add("string " + v); }
    bool binary(binary_t &) override { return add("binary"); }
    bool start_object(std::size_t n) override { return add("{ " + std::to_string(n)); }
    bool end_object() override { return add("}"); }
    bool start_array(std::size_t n) override { return add("[ " + std::to_string(n)); }
    bool end_array() override { return add("]"); }
    bool key(string_t &k) override { return add("key " + k); }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        failed = true;
        return false;
    }

private:
    bool add(std::string e)
    {
        events.push_back(std::move(e));
        return true;
    }
};

} // namespace testsupport
