// Fuzzes the SAX pod-list decoder (models/client/podlistdecoder.h). The DOM decoder is the
// reference: both accept the same inputs and produce the same page (when no object repeats a
// key, which a DOM cannot represent). Decoding the page again with
// the same decoder (specs now interned) gives the same pods again. The decoder's JSON reader
// (kube::parseJsonSax) and nlohmann's accept the same texts and send the same events.

#include "models/client/podlistdecoder.h"
#include "models/kube/jsonsax.h"
#include "tests/fuzz/fuzzcheck.h"
#include "tests/support/saxrecorder.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace {

bool samePage(const client::PodListPage &a, const client::PodListPage &b)
{
    if (a.items.size() != b.items.size() || a.resourceVersion != b.resourceVersion ||
        a.continueToken != b.continueToken || a.remainingItemCount != b.remainingItemCount)
        return false;
    for (std::size_t i = 0; i < a.items.size(); ++i)
        if (a.items[i].toJson() != b.items[i].toJson())
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view json(reinterpret_cast<const char *>(data), size);
    testsupport::SaxRecorder ours, theirs;
    const kube::SaxResult read = kube::parseJsonSax(json, ours);
    const bool theirsOk = kube::Json::sax_parse(json.begin(), json.end(), &theirs);
    FUZZ_CHECK((read == kube::SaxResult::Ok) == theirsOk);
    FUZZ_CHECK(!theirsOk || ours.events == theirs.events);
    client::PodListDecoder decoder;
    auto sax = decoder.decode(json);
    auto dom = client::PodListDecoder().decodeWithDom(json);
    if (sax.ok() != dom.ok()) {
        std::fprintf(stderr, "SAX %s, DOM %s\n", sax ? "accepts" : sax.error().message.c_str(),
                     dom ? "accepts" : dom.error().message.c_str());
        FUZZ_CHECK(!"the SAX and DOM decoders accept the same inputs");
    }
    if (!sax) {
        FUZZ_CHECK(!sax.error().message.empty());
        return 0;
    }
    // A repeated key ("metadata" twice) keeps its last value in the DOM and both in the stream.
    FUZZ_CHECK(samePage(*sax, *dom) || hasRepeatedKeys(json));
    auto again = decoder.decode(json);
    FUZZ_CHECK(again.ok() && samePage(*sax, *again));
    return 0;
}
