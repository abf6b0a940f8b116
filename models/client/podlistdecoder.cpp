#include "models/client/podlistdecoder.h"

#include "models/kube/gojson.h"
#include "models/kube/jsonfield.h"
#include "models/kube/jsonlimits.h"

#include <vector>

namespace client {

using kube::ApiStatus;
using kube::Json;
using kube::Result;

namespace {

ApiStatus decodeError(const std::string &message)
{
    return {0, "DecodeError", message};
}

// Builds a DOM for one value from SAX callbacks.
class DomBuilder
{
public:
    bool active() const { return !m_stack.empty(); }
    Json take() { return std::move(m_root); }

    // Returns true when the value completed the root.
    bool value(Json v)
    {
        if (m_stack.empty()) {
            m_root = std::move(v);
            return true;
        }
        Json *top = m_stack.back();
        if (top->is_array())
            top->push_back(std::move(v));
        else
            (*top)[m_key] = std::move(v);
        return false;
    }
    void open(Json container)
    {
        if (m_stack.empty()) {
            m_root = std::move(container);
            m_stack.push_back(&m_root);
            return;
        }
        Json *top = m_stack.back();
        if (top->is_array()) {
            top->push_back(std::move(container));
            m_stack.push_back(&top->back());
        } else {
            Json &slot = (*top)[m_key];
            slot = std::move(container);
            m_stack.push_back(&slot);
        }
    }
    // Returns true when the root closed.
    bool close()
    {
        m_stack.pop_back();
        return m_stack.empty();
    }
    void key(std::string k) { m_key = std::move(k); }

private:
    Json m_root;
    std::vector<Json *> m_stack;
    std::string m_key;
};

class PodListSax : public nlohmann::json_sax<Json>
{
public:
    PodListSax(PodListDecoder &decoder, PodListPage &page) : m_decoder(decoder), m_page(page) {}

    std::string error;

    bool null() override { return scalar(nullptr); }
    bool boolean(bool v) override { return scalar(v); }
    bool number_integer(number_integer_t v) override { return scalar(v); }
    bool number_unsigned(number_unsigned_t v) override { return scalar(v); }
    bool number_float(number_float_t v, const string_t &) override { return scalar(v); }
    bool string(string_t &v) override { return scalar(std::move(v)); }
    bool binary(binary_t &) override { return true; }

    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t &k) override
    {
        if (m_item.active()) {
            m_item.key(std::move(k));
        } else if (m_depth == 1) {
            m_topKey = std::move(k);
        } else if (m_depth == 2 && m_inMetadata) {
            m_metaKey = std::move(k);
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string &,
                     const nlohmann::detail::exception &ex) override
    {
        error = "pod list is not valid JSON at byte " + std::to_string(position) + ": " + ex.what();
        return false;
    }

private:
    template <typename V> bool scalar(V &&v)
    {
        if (m_item.active()) {
            m_item.value(Json(std::forward<V>(v)));
            return true;
        }
        if (m_depth == 2 && m_inMetadata) {
            Json j(std::forward<V>(v));
            if (m_metaKey == "resourceVersion" && j.is_string())
                m_page.resourceVersion = j.get<std::string>();
            else if (m_metaKey == "continue" && j.is_string())
                m_page.continueToken = j.get<std::string>();
            else if (m_metaKey == "remainingItemCount" && j.is_number_integer())
                m_page.remainingItemCount = j.get<std::int64_t>();
        } else if (m_depth == 2 && m_inItems) {
            error = "pod list item " + std::to_string(m_page.items.size()) + " is not an object";
            return false;
        } else if (m_depth == 0) {
            error = "pod list is not a JSON object";
            return false;
        }
        return true;
    }

    bool open(Json container)
    {
        // nlohmann's SAX parser does not recurse, but the item's DOM built here is copied,
        // compared and hashed recursively later on.
        if (m_depth >= kube::JsonLimits::maxDepth) {
            error = "pod list is refused: " + kube::JsonLimits::tooDeepMessage();
            return false;
        }
        if (m_item.active()) {
            m_item.open(std::move(container));
            ++m_depth;
            return true;
        }
        if (m_depth == 0 && !container.is_object()) {
            error = "pod list is not a JSON object";
            return false;
        }
        if (m_depth == 1 && m_topKey == "items" && container.is_array())
            m_inItems = true;
        else if (m_depth == 1 && m_topKey == "metadata" && container.is_object())
            m_inMetadata = true;
        else if (m_depth == 2 && m_inItems) {
            if (!container.is_object()) {
                error = "pod list item " + std::to_string(m_page.items.size()) + " is not an object";
                return false;
            }
            m_item.open(std::move(container));
        }
        ++m_depth;
        return true;
    }

    bool close()
    {
        --m_depth;
        if (m_item.active()) {
            if (m_item.close())
                return finishItem();
            return true;
        }
        if (m_depth == 1) {
            m_inItems = false;
            m_inMetadata = false;
        }
        return true;
    }

    bool finishItem()
    {
        auto pod = kube::Pod::fromJson(m_item.take());
        if (!pod) {
            error = "pod list item " + std::to_string(m_page.items.size()) + ": " + pod.error().message;
            return false;
        }
        m_decoder.intern(*pod);
        m_page.items.push_back(std::move(*pod));
        return true;
    }

    PodListDecoder &m_decoder;
    PodListPage &m_page;
    DomBuilder m_item;
    int m_depth = 0;
    bool m_inItems = false;
    bool m_inMetadata = false;
    std::string m_topKey;
    std::string m_metaKey;
};

} // namespace

Result<PodListPage> PodListDecoder::decode(std::string_view json)
{
    PodListPage page;
    PodListSax sax(*this, page);
    const bool ok = Json::sax_parse(json.begin(), json.end(), &sax);
    if (!ok || !sax.error.empty())
        return decodeError(sax.error.empty() ? std::string("pod list could not be decoded") : sax.error);
    return page;
}

Result<PodListPage> PodListDecoder::decodeWithDom(std::string_view json)
{
    auto parsed = kube::JsonLimits::parse(json);
    if (!parsed)
        return decodeError("pod list is refused: " + parsed.error().message);
    const Json &j = *parsed;
    if (!j.is_object())
        return decodeError("pod list is not a JSON object");
    PodListPage page;
    if (auto m = j.find("metadata"); m != j.end() && m->is_object()) {
        page.resourceVersion = kube::stringOr(*m, "resourceVersion");
        page.continueToken = kube::stringOr(*m, "continue");
        if (auto r = m->find("remainingItemCount"); r != m->end() && r->is_number_integer())
            page.remainingItemCount = r->get<std::int64_t>();
    }
    if (auto items = j.find("items"); items != j.end() && items->is_array()) {
        page.items.reserve(items->size());
        for (const auto &item : *items) {
            auto pod = kube::Pod::fromJson(item);
            if (!pod)
                return decodeError("pod list item " + std::to_string(page.items.size()) + ": " +
                                   pod.error().message);
            intern(*pod);
            page.items.push_back(std::move(*pod));
        }
    }
    return page;
}

void PodListDecoder::intern(kube::Pod &pod)
{
    if (!pod.spec)
        return;
    if (m_specCount > 4096) { // many distinct templates: stop growing, start over
        m_specs.clear();
        m_specCount = 0;
    }
    auto &bucket = m_specs[std::hash<Json>{}(*pod.spec)];
    for (const auto &known : bucket) {
        if (*known == *pod.spec) {
            pod.spec = known;
            return;
        }
    }
    bucket.push_back(pod.spec);
    ++m_specCount;
}

std::size_t PodListDecoder::distinctSpecs() const
{
    return m_specCount;
}

Result<PodListPage> decodePodList(std::string_view json)
{
    PodListDecoder decoder;
    return decoder.decode(json);
}

} // namespace client
