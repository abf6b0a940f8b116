#pragma once
// The happy-path upgrade scenario (tests/scenarios/upgrade/01-…: 6 nodes in 2 zones, ReplicaSet
// web), run until its pods are Ready and nothing more, with the controller checking its view
// against the store at every pass (verifyIncremental); the test drives the rest. Null when it
// cannot be read or run.

#include "models/scenario/nodeupgradescenario.h"

#include <QFile>

#include <memory>
#include <string>

inline std::unique_ptr<scenario::NodeUpgradeScenario> happyPathReady(const std::string &name)
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR
                           "/tests/scenarios/upgrade/01-happy-path-zone-serial-one-at-a-time.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    std::string text = f.readAll().toStdString();
    text = text.substr(0, text.find("\nsteps:\n")) + "\nsteps:\n  - run: {until: podsReady 6, timeout: 1m}\n";
    auto s = scenario::NodeUpgradeScenario::fromText(text, name);
    if (!s)
        return nullptr;
    sim::NodeUpgradeRuntimeOptions options;
    options.controller.verifyIncremental = true;
    (*s)->setRuntimeOptions(options);
    if ((*s)->run().exitCode != 0)
        return nullptr;
    return std::move(*s);
}
