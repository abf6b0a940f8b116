#include "models/client/transport.h"
#include "models/kube/jsonfield.h"

#include "models/kube/jsonlimits.h"

namespace client {

std::string Transport::encodeQuery(const Query &query)
{
    static const char *hex = "0123456789ABCDEF";
    std::string out;
    auto encode = [&](const std::string &s) {
        for (unsigned char c : s) {
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                c == '_' || c == '.' || c == '~') {
                out += static_cast<char>(c);
            } else {
                out += '%';
                out += hex[c >> 4];
                out += hex[c & 15];
            }
        }
    };
    for (const auto &[k, v] : query) {
        if (!out.empty())
            out += '&';
        encode(k);
        out += '=';
        encode(v);
    }
    return out;
}

std::string Transport::redactedUrl(const std::string &url)
{
    const auto scheme = url.find("://");
    const std::size_t start = scheme == std::string::npos ? 0 : scheme + 3;
    const auto end = url.find_first_of("/?#", start);
    const auto at = url.rfind('@', end == std::string::npos ? std::string::npos : end);
    if (at == std::string::npos || at < start)
        return url;
    return url.substr(0, start) + "***" + url.substr(at);
}

std::string Transport::reasonForCode(int httpCode)
{
    switch (httpCode) {
    case 400:
        return "BadRequest";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "NotFound";
    case 405:
        return "MethodNotAllowed";
    case 406:
        return "NotAcceptable";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "RequestEntityTooLarge";
    case 415:
        return "UnsupportedMediaType";
    case 422:
        return "Invalid";
    case 429:
        return "TooManyRequests";
    case 500:
        return "InternalError";
    case 503:
        return "ServiceUnavailable";
    case 504:
        return "Timeout";
    default:
        return "Unknown";
    }
}

kube::ApiStatus Transport::errorFromResponse(int httpCode, const std::string &body, const std::string &server)
{
    const auto parsed = kube::JsonLimits::parse(body);
    if (parsed && parsed->is_object() && kube::stringOr(*parsed, "kind") == "Status") {
        kube::ApiStatus s = kube::ApiStatus::fromJson(*parsed, httpCode);
        if (s.reason.empty())
            s.reason = reasonForCode(s.code);
        return s;
    }
    std::string message = "HTTP " + std::to_string(httpCode) + " from " + server;
    // A short plain-text answer ("404 page not found") helps; HTML pages and JSON do not.
    std::string text = body.substr(0, 200);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    if (!text.empty() && text.find('<') == std::string::npos && text.find('{') == std::string::npos &&
        text.find('\n') == std::string::npos)
        message += ": " + text;
    return {httpCode, reasonForCode(httpCode), message};
}

} // namespace client
