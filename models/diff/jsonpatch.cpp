#include "models/diff/jsonpatch.h"

#include <string_view>

namespace diff {

namespace {

// For an operation that adds (add, and move and copy, which add at "path"): why it cannot apply
// because the location's parent exists and is a string, number or boolean. RFC 6902 requires the
// parent to be an object or an array; nlohmann's patch asserts instead of throwing there, so
// this is checked first. Empty when the operation is not an add or the parent is fine; pointer
// syntax errors are left to the patch, which reports them.
std::string primitiveParent(const kube::Json &document, const kube::Json &op)
{
    const auto kind = op.find("op");
    const auto path = op.find("path");
    if (kind == op.end() || !kind->is_string() || path == op.end() || !path->is_string())
        return {};
    const std::string_view k = kind->get_ref<const std::string &>();
    if (k != "add" && k != "move" && k != "copy")
        return {};
    try {
        const kube::Json::json_pointer pointer(path->get<std::string>());
        if (pointer.empty())
            return {};
        const kube::Json::json_pointer parent = pointer.parent_pointer();
        if (!document.contains(parent))
            return {};
        const kube::Json &p = document.at(parent);
        if (p.is_object() || p.is_array() || p.is_null())
            return {};
        return "the parent \"" + parent.to_string() + "\" is a " + p.type_name() +
               ", not an object or an array";
    } catch (const kube::Json::exception &) {
        return {};
    }
}

} // namespace

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
        if (const std::string why = primitiveParent(result, op); !why.empty())
            return kube::ApiStatus::badRequest(describe() + ": " + why);
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
