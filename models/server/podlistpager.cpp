#include "models/server/podlistpager.h"

#include "models/kube/gojson.h"

#include <openssl/evp.h>

#include <algorithm>

namespace server {

namespace {

using kube::ApiStatus;
using kube::Json;

// kube-apiserver's continue tokens are base64url without padding.
std::string base64Url(const std::string &bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char *>(out.data()),
                                  reinterpret_cast<const unsigned char *>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(std::max(0, n)));
    while (!out.empty() && out.back() == '=')
        out.pop_back();
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
    return out;
}

std::optional<std::string> fromBase64Url(std::string text)
{
    if (text.empty() || text.size() % 4 == 1 ||
        text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") !=
            std::string::npos)
        return std::nullopt;
    std::replace(text.begin(), text.end(), '-', '+');
    std::replace(text.begin(), text.end(), '_', '/');
    const std::size_t pad = (4 - text.size() % 4) % 4;
    text.append(pad, '=');
    std::string out(text.size() / 4 * 3, '\0');
    const int n =
        EVP_DecodeBlock(reinterpret_cast<unsigned char *>(out.data()),
                        reinterpret_cast<const unsigned char *>(text.data()), static_cast<int>(text.size()));
    if (n < 0 || static_cast<std::size_t>(n) < pad)
        return std::nullopt;
    out.resize(static_cast<std::size_t>(n) - pad); // EVP_DecodeBlock counts the padding as zero bytes
    return out;
}

struct Token
{
    std::uint64_t resourceVersion = 0;
    std::string start; // the last key served
    std::uint64_t list = 0;
    std::size_t served = 0;
};

std::string encode(const Token &t)
{
    const Json j = {{"v", "meta.k8s.io/v1"},
                    {"rv", t.resourceVersion},
                    {"start", t.start + '\0'},
                    {"list", t.list},
                    {"served", t.served}};
    return base64Url(kube::goJson(j));
}

std::optional<Token> decode(const std::string &text)
{
    const auto bytes = fromBase64Url(text);
    if (!bytes)
        return std::nullopt;
    const Json j = Json::parse(*bytes, nullptr, false);
    if (!j.is_object() || j.value("v", Json()) != "meta.k8s.io/v1")
        return std::nullopt;
    const auto rv = j.find("rv"), start = j.find("start"), list = j.find("list"), served = j.find("served");
    if (rv == j.end() || !rv->is_number_unsigned() || start == j.end() || !start->is_string() ||
        list == j.end() || !list->is_number_unsigned() || served == j.end() || !served->is_number_unsigned())
        return std::nullopt;
    Token t{rv->get<std::uint64_t>(), start->get<std::string>(), list->get<std::uint64_t>(),
            served->get<std::size_t>()};
    if (t.start.empty() || t.start.back() != '\0')
        return std::nullopt;
    t.start.pop_back();
    return t;
}

ApiStatus expired()
{
    return {410, "Expired",
            "The provided continue parameter is too old to display a consistent list result. You can start a "
            "new list without the continue parameter."};
}

} // namespace

PodListPager::Page PodListPager::first(sim::Cluster &c, const std::string &ns, const Filter &keep,
                                       bool selective, std::size_t limit)
{
    expire(c);
    Page page;
    page.resourceVersion = c.resourceVersion();
    auto read = c.podPage(page.resourceVersion, ns, {}, limit, keep);
    std::uint64_t id = 0;
    if (read.more) {
        // Pinned before anything else is written: the next pages read this same version.
        c.pinPods();
        id = ++m_nextId;
        m_lists[id] = {page.resourceVersion, selective ? 0 : c.podCount(ns),
                       std::chrono::steady_clock::now()};
    }
    finishPage(c, page, read, id, 0, selective);
    expire(c);
    return page;
}

kube::Result<PodListPager::Page> PodListPager::next(sim::Cluster &c, const std::string &token,
                                                    const std::string &ns, const Filter &keep, bool selective,
                                                    std::size_t limit)
{
    expire(c);
    const auto t = decode(token);
    if (!t)
        return expired();
    auto it = m_lists.find(t->list);
    if (it == m_lists.end() || it->second.resourceVersion != t->resourceVersion)
        return expired();
    if (!ns.empty() && t->start.rfind(ns + "/", 0) != 0)
        return ApiStatus::badRequest("invalid continue token: the continue key " + t->start +
                                     " is outside namespace " + ns);
    Page page;
    page.resourceVersion = t->resourceVersion;
    auto read = c.podPage(t->resourceVersion, ns, t->start, limit, keep);
    finishPage(c, page, read, t->list, t->served, selective);
    return page;
}

void PodListPager::finishPage(sim::Cluster &c, Page &page, sim::Cluster::PodPage &read, std::uint64_t id,
                              std::size_t served, bool selective)
{
    served += read.pods.size();
    page.pods = std::move(read.pods);
    auto it = m_lists.find(id);
    if (it == m_lists.end())
        return;
    if (!read.more) {
        release(c, it); // the last page: nothing refers to the list any more
        return;
    }
    page.continueToken = encode({page.resourceVersion, read.lastKey, id, served});
    if (!selective)
        page.remaining = static_cast<std::int64_t>(it->second.total > served ? it->second.total - served : 0);
}

void PodListPager::release(sim::Cluster &c, std::map<std::uint64_t, List>::iterator it)
{
    c.unpinPods(it->second.resourceVersion);
    m_lists.erase(it);
}

void PodListPager::expire(sim::Cluster &c)
{
    const auto now = std::chrono::steady_clock::now();
    for (auto it = m_lists.begin(); it != m_lists.end();) {
        auto next = std::next(it);
        if (now - it->second.created > kMaxAge)
            release(c, it);
        it = next;
    }
    while (m_lists.size() > kMaxLists)
        release(c, m_lists.begin()); // ids count up: the oldest list
}

} // namespace server
