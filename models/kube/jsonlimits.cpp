#include "models/kube/jsonlimits.h"

namespace kube {

std::string JsonLimits::tooDeepMessage(int depthLimit)
{
    return "the JSON document nests arrays and objects deeper than " + std::to_string(depthLimit) + " levels";
}

Result<Json> JsonLimits::parse(std::string_view text, int depthLimit)
{
    // The callback sees each container start with the number of containers around it. Past
    // the limit the container is dropped (the parser skips it without building it) and the
    // whole document is refused afterwards.
    bool tooDeep = false;
    const Json::parser_callback_t bound = [&](int depth, Json::parse_event_t event, Json &) {
        if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
            depth >= depthLimit) {
            tooDeep = true;
            return false;
        }
        return true;
    };
    try {
        Json j = Json::parse(text.begin(), text.end(), bound);
        if (tooDeep)
            return ApiStatus::badRequest(tooDeepMessage(depthLimit));
        return j;
    } catch (const std::exception &e) {
        if (tooDeep)
            return ApiStatus::badRequest(tooDeepMessage(depthLimit));
        // nlohmann's message names the line, column and the token it choked on ("last read:
        // '...'"), which can be a whole unterminated string: kept short.
        std::string what = e.what();
        if (what.size() > 200)
            what = what.substr(0, 200) + "...";
        return ApiStatus::badRequest("not valid JSON: " + what);
    }
}

} // namespace kube
