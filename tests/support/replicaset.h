#pragma once
// A ReplicaSet manifest as the engine tests and benchmarks create them: pods labelled
// app=NAME, one container.

#include "models/kube/gojson.h"

#include <string>

namespace testsupport {

inline kube::Json replicaSetManifest(const std::string &name, const std::string &ns, int replicas,
                                     const std::string &container, const std::string &image)
{
    return {{"apiVersion", "apps/v1"},
            {"kind", "ReplicaSet"},
            {"metadata", {{"name", name}, {"namespace", ns}}},
            {"spec",
             {{"replicas", replicas},
              {"selector", {{"matchLabels", {{"app", name}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", name}}}}},
                {"spec", {{"containers", kube::Json::array({{{"name", container}, {"image", image}}})}}}}}}}};
}

} // namespace testsupport
