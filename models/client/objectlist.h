#pragma once
// ObjectList — the items of a (possibly paged) list and the list's resourceVersion, from which
// a watch continues.

#include <string>
#include <vector>

namespace client {

template <typename T> struct ObjectList
{
    std::vector<T> items;
    std::string resourceVersion;
};

} // namespace client
