#pragma once
// JsonLimits — the one bounded parse of JSON that comes from outside the process: request
// bodies the API server reads, answers and watch events the client reads, exec plugin output.
//
// nlohmann's parser is iterative, but copying, comparing, merging and printing a value recurse
// once per nesting level, so a small body nested 100,000 levels deep overflows the stack of
// whoever touches it next. kube-apiserver's decoder (Go's encoding/json scanner) refuses
// documents nested deeper than 10,000 levels; Kubernetes objects nest a few dozen levels at
// most (a CRD's OpenAPI schema is the deepest), so 1,000 leaves a wide margin while keeping
// every recursive pass over an accepted value far from the end of an 8 MiB thread stack.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <string>
#include <string_view>

namespace kube {

class JsonLimits
{
public:
    static constexpr int maxDepth = 1000; // nested arrays and objects, the outermost counting 1

    // One JSON document (surrounding whitespace allowed). Never throws; errors are 400
    // BadRequest whose message says what is wrong and where (a byte offset, never the text).
    static Result<Json> parse(std::string_view text, int depthLimit = maxDepth);
    // The message for a document nested deeper than depthLimit (for SAX decoders that count
    // depth themselves).
    static std::string tooDeepMessage(int depthLimit = maxDepth);
};

} // namespace kube
