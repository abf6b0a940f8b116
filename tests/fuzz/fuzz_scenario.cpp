// Fuzzes the scenario parser (models/scenario/scenarioparser.h): any text either parses or is
// rejected with problems that each start with "FILE:".

#include "models/scenario/scenarioparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    auto parsed = scenario::ScenarioParser::parseText(text, "fuzz.yaml");
    if (parsed)
        return 0;
    const std::string &message = parsed.error().message;
    FUZZ_CHECK(!message.empty());
    if (message.rfind("fuzz.yaml:", 0) != 0) {
        std::fprintf(stderr, "message: %s\n", message.c_str());
        FUZZ_CHECK(!"the problems name the file");
    }
    return 0;
}
