#pragma once
// daemonscope upgrade status NAME --scenario FILE — the node-agent upgrade's headline, counts,
// conditions and per-node table after a scenario's steps.

#include <QStringList>

namespace app {

int cmdUpgrade(const QStringList &arguments); // daemonscope upgrade status NAME --scenario FILE

} // namespace app
