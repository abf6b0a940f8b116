#include "models/server/kubeconfigwriter.h"

#include "models/server/tlsmaterial.h"

#include <yaml-cpp/yaml.h>

namespace server {

std::string KubeconfigWriter::render(const std::string &serverUrl, const std::string &caCertificatePem,
                                     const std::string &token, const std::string &name)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << "v1";
    out << YAML::Key << "kind" << YAML::Value << "Config";
    out << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << name;
    out << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "server" << YAML::Value << serverUrl;
    if (!caCertificatePem.empty())
        out << YAML::Key << "certificate-authority-data" << YAML::Value
            << TlsMaterial::base64(caCertificatePem);
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    out << YAML::Key << "contexts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << name;
    out << YAML::Key << "context" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "cluster" << YAML::Value << name;
    out << YAML::Key << "user" << YAML::Value << name;
    out << YAML::Key << "namespace" << YAML::Value << "default";
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    out << YAML::Key << "current-context" << YAML::Value << name;
    out << YAML::Key << "preferences" << YAML::Value << YAML::BeginMap << YAML::EndMap;
    out << YAML::Key << "users" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << name;
    out << YAML::Key << "user" << YAML::Value << YAML::BeginMap;
    if (!token.empty())
        out << YAML::Key << "token" << YAML::Value << token;
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace server
