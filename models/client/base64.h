#pragma once
// Standard base64 (RFC 4648 with padding) as Go's encoding/base64.StdEncoding reads kubeconfig
// `*-data` fields: CR and LF are skipped, anything else outside the alphabet is an error.

#include <optional>
#include <string>
#include <string_view>

namespace client {

std::string encodeBase64(std::string_view bytes);
// Decoded bytes, or nullopt with the offset of the first offending input byte in *badOffset.
std::optional<std::string> decodeBase64(std::string_view text, std::size_t *badOffset = nullptr);

} // namespace client
