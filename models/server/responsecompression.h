#pragma once
// Response compression as kube-apiserver does it (its deferred response writer): a body of more
// than 128 KiB goes out gzip-compressed at level 1 (BestSpeed) when the request's
// Accept-Encoding names the token "gzip", with `Content-Encoding: gzip` and `Vary:
// Accept-Encoding`; a smaller body, or one for a client that does not take gzip, goes out as it
// is. Level 1 costs a third to a quarter of zlib's default level for a list page and compresses
// its JSON nearly as well.
//
// cpp-httplib would otherwise gzip every JSON or text body at zlib's default level, small ones
// included, or with brotli when the client offers it. The API server therefore hands every body
// over as a content provider of known length, which cpp-httplib writes as it is (apiserver.cpp,
// finishBody). Streams (watches, followed logs) already are content providers and are left alone.

#include <cstddef>
#include <string>
#include <string_view>

namespace server {

inline constexpr std::size_t kGzipThresholdBytes = 128 * 1024;
inline constexpr int kGzipLevel = 1;

// True when one comma-separated token of the header, trimmed, is exactly "gzip" (as
// kube-apiserver reads it: "gzip;q=0.5" is not such a token).
bool acceptsGzip(std::string_view acceptEncoding);

// A gzip member (RFC 1952) of `data` at `level`.
std::string gzipCompress(std::string_view data, int level = kGzipLevel);

} // namespace server
