#include "models/server/responsecompression.h"

#include <zlib.h>

#include <stdexcept>

namespace server {

bool acceptsGzip(std::string_view header)
{
    while (!header.empty()) {
        const auto comma = header.find(',');
        std::string_view token = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        const auto first = token.find_first_not_of(" \t");
        if (first == std::string_view::npos)
            continue;
        token = token.substr(first, token.find_last_not_of(" \t") - first + 1);
        if (token == "gzip")
            return true;
    }
    return false;
}

std::string gzipCompress(std::string_view data, int level)
{
    z_stream zs{};
    // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("gzip: cannot initialise zlib");
    std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("gzip: compression did not finish");
    return out;
}

} // namespace server
