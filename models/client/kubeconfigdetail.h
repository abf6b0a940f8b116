#pragma once
// Helpers shared by kubeconfig.cpp (loading the files) and kubeconfigresolve.cpp (resolving a
// context): the error every kubeconfig problem is reported with, how a value from the files is
// shown in a message, and reading a file. Private to kubeclient.

#include "models/kube/result.h"

#include <string>
#include <utility>

namespace client::detail {

kube::ApiStatus configError(const std::string &message);

// A value from the file, for a message: quoted when it looks like a name, else described.
std::string shown(const std::string &s);

// "user:password" from a URL, percent-decoded as Go's url.Parse does it.
std::pair<std::string, std::string> splitUserInfo(const std::string &userinfo);

kube::Result<std::string> readFile(const std::string &path);

} // namespace client::detail
