// Fuzzes kube::parseYamlDocuments (models/kube/yamldocument.h) and the renderer's promise in
// models/kube/yaml.h: toYaml() of every parsed document reads back to an equal Json. Errors and
// positions must name the file, as every message of the YAML layer does. The loader's fast reader
// (models/kube/yamlfast.h) either declines a text or reads exactly what yaml-cpp's reader reads.

#include "models/kube/yaml.h"
#include "models/kube/yamldocument.h"
#include "models/kube/yamlfast.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    if (const auto fast = kube::detail::parseYamlDocumentsFast(text, "fuzz.yaml")) {
        const auto slow = kube::detail::parseYamlDocumentsSlow(text, "fuzz.yaml");
        FUZZ_CHECK(slow.ok());
        FUZZ_CHECK(fast->size() == slow->size());
        for (std::size_t i = 0; i < fast->size(); ++i) {
            FUZZ_CHECK((*fast)[i].value == (*slow)[i].value);
            FUZZ_CHECK((*fast)[i].positions == (*slow)[i].positions);
            FUZZ_CHECK((*fast)[i].keyPositions == (*slow)[i].keyPositions);
            FUZZ_CHECK((*fast)[i].file == (*slow)[i].file);
        }
    }
    auto docs = kube::parseYamlDocuments(text, "fuzz.yaml");
    if (!docs) {
        FUZZ_CHECK(docs.error().message.rfind("fuzz.yaml:", 0) == 0);
        return 0;
    }
    for (const kube::YamlDocument &doc : *docs) {
        for (const auto &[pointer, pos] : doc.positions) {
            FUZZ_CHECK(pos.line >= 1 && pos.column >= 1);
            FUZZ_CHECK(doc.where(pointer).rfind("fuzz.yaml:", 0) == 0);
        }
        const std::string rendered = kube::toYaml(doc.value);
        auto back = kube::parseYamlDocuments(rendered, "rendered.yaml");
        if (!back || back->size() != 1 || back->front().value != doc.value) {
            std::fprintf(stderr, "value: %s\nrendered:\n%s\nread back: %s\n", fuzzDump(doc.value).c_str(),
                         rendered.c_str(),
                         !back ? back.error().message.c_str()
                               : (back->empty() ? "no document" : fuzzDump(back->front().value).c_str()));
            FUZZ_CHECK(!"toYaml() output reads back to the same value");
        }
    }
    return 0;
}
