#pragma once
// The cluster of tests/serve/drain.yaml (a DaemonSet on three nodes, ReplicaSet api with a
// PodDisruptionBudget), built fresh for each server a test starts; null when it cannot be read.

#include "models/scenario/scenariorunner.h"

#include <QFile>

#include <memory>

inline std::unique_ptr<sim::Cluster> drainCluster()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/drain.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "drain.yaml");
    return c ? std::move(*c) : nullptr;
}
