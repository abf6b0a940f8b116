#include "models/kube/jsonlimits.h"

#include "models/kube/jsonsax.h"

#include <vector>

namespace kube {

std::string JsonLimits::tooDeepMessage(int depthLimit)
{
    return "the JSON document nests arrays and objects deeper than " + std::to_string(depthLimit) + " levels";
}

namespace {

// Builds the document from kube::parseJsonSax's events, as nlohmann's own DOM parser does (a
// repeated key keeps its last value), and stops at the first container nested deeper than the
// limit.
class BoundedDom : public nlohmann::json_sax<Json>
{
public:
    BoundedDom(Json &root, int depthLimit) : m_root(root), m_limit(depthLimit) {}

    bool tooDeep = false;

    bool null() override { return put(Json()); }
    bool boolean(bool v) override { return put(Json(v)); }
    bool number_integer(number_integer_t v) override { return put(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(Json(v)); }
    bool number_float(number_float_t v, const string_t &) override { return put(Json(v)); }
    bool string(string_t &v) override { return put(Json(std::move(v))); }
    bool binary(binary_t &) override { return false; } // JSON text has none
    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t &k) override
    {
        m_slot = &(*m_stack.back())[std::move(k)];
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        return false;
    }

private:
    Json *place(Json v)
    {
        if (m_stack.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        Json &parent = *m_stack.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        *m_slot = std::move(v);
        return m_slot;
    }
    bool put(Json v)
    {
        place(std::move(v));
        return true;
    }
    bool open(Json container)
    {
        if (static_cast<int>(m_stack.size()) >= m_limit) {
            tooDeep = true;
            return false;
        }
        m_stack.push_back(place(std::move(container)));
        return true;
    }
    bool close()
    {
        m_stack.pop_back();
        return true;
    }

    Json &m_root;
    int m_limit;
    std::vector<Json *> m_stack;
    Json *m_slot = nullptr;
};

} // namespace

Result<Json> JsonLimits::parse(std::string_view text, int depthLimit)
{
    // The project's reader first (kube::parseJsonSax, the same acceptance as nlohmann's); an
    // invalid text is read again by nlohmann's parser below, for its message.
    {
        Json root;
        BoundedDom dom(root, depthLimit);
        const SaxResult read = parseJsonSax(text, dom);
        if (dom.tooDeep)
            return ApiStatus::badRequest(tooDeepMessage(depthLimit));
        if (read == SaxResult::Ok)
            return root;
    }

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
