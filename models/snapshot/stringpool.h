#pragma once
// StringPool — one shared QString per distinct text. Values that repeat across tens of
// thousands of snapshot records (node names, revision hashes, pod phases and reasons) then
// cost one allocation instead of one per record: QString is implicitly shared, so every
// record holding a pooled value points at the same data.

#include <QString>

#include <string>
#include <unordered_map>

namespace models {

class StringPool
{
public:
    const QString &operator()(const std::string &text)
    {
        if (m_strings.size() >= kMaxEntries)
            m_strings.clear(); // handed-out copies stay valid; only sharing with new ones ends
        auto it = m_strings.find(text);
        if (it == m_strings.end())
            it = m_strings.emplace(text, QString::fromStdString(text)).first;
        return it->second;
    }

private:
    static constexpr std::size_t kMaxEntries = 100000;
    std::unordered_map<std::string, QString> m_strings;
};

} // namespace models
