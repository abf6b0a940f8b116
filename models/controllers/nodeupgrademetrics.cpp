#include "models/controllers/nodeupgrademetrics.h"

#include <algorithm>

namespace controllers {

namespace {
constexpr std::size_t kMaxDurations = 256;
}

NodeUpgradeMetrics::NodeUpgradeMetrics(std::size_t capacity) : m_ring(std::max<std::size_t>(1, capacity)) {}

void NodeUpgradeMetrics::sample(NodeUpgradeSample s)
{
    m_ring[m_head] = std::move(s);
    m_head = (m_head + 1) % m_ring.size();
    m_size = std::min(m_size + 1, m_ring.size());
    ++m_total;
}

std::vector<NodeUpgradeSample> NodeUpgradeMetrics::samples() const
{
    std::vector<NodeUpgradeSample> out;
    out.reserve(m_size);
    const std::size_t start = (m_head + m_ring.size() - m_size) % m_ring.size();
    for (std::size_t i = 0; i < m_size; ++i)
        out.push_back(m_ring[(start + i) % m_ring.size()]);
    return out;
}

const NodeUpgradeSample *NodeUpgradeMetrics::latest() const
{
    if (m_size == 0)
        return nullptr;
    return &m_ring[(m_head + m_ring.size() - 1) % m_ring.size()];
}

void NodeUpgradeMetrics::observePhaseDuration(const std::string &phase, kube::Duration d)
{
    auto &v = m_phaseDurations[phase];
    v.push_back(d);
    if (v.size() > kMaxDurations)
        v.erase(v.begin());
}

} // namespace controllers
