#include "models/diff/jsonpatch.h"

namespace diff {

kube::Json jsonPatch(const kube::Json &from, const kube::Json &to)
{
    return kube::Json::diff(from, to);
}

kube::Result<kube::Json> applyJsonPatch(const kube::Json &document, const kube::Json &patch)
{
    if (!patch.is_array())
        return kube::ApiStatus::badRequest("JSON Patch must be an array of operations, got " +
                                           std::string(patch.type_name()));
    kube::Json result = document;
    // Applied one operation at a time so an error can say which operation failed.
    for (std::size_t i = 0; i < patch.size(); ++i) {
        const kube::Json &op = patch[i];
        auto describe = [&]() {
            std::string what = "JSON Patch operation " + std::to_string(i);
            if (op.is_object()) {
                if (auto it = op.find("op"); it != op.end() && it->is_string())
                    what += " (" + it->get<std::string>();
                else
                    what += " (?";
                if (auto it = op.find("path"); it != op.end() && it->is_string())
                    what += " \"" + it->get<std::string>() + "\"";
                what += ")";
            }
            return what;
        };
        if (!op.is_object())
            return kube::ApiStatus::badRequest(describe() + ": an operation must be an object");
        try {
            result.patch_inplace(kube::Json::array({op}));
        } catch (const kube::Json::exception &e) {
            // nlohmann prefixes "[json.exception.out_of_range.403] ", which means nothing to a user.
            std::string why = e.what();
            if (const auto close = why.find("] ");
                !why.empty() && why.front() == '[' && close != std::string::npos)
                why.erase(0, close + 2);
            return kube::ApiStatus::badRequest(describe() + ": " + why);
        }
    }
    return result;
}

} // namespace diff
