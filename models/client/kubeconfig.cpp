#include "models/client/kubeconfig.h"

#include "models/client/base64.h"
#include "models/client/kubeconfigdetail.h"
#include "models/kube/yamlscalar.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace client {

using kube::ApiStatus;
using kube::Result;

namespace detail {

ApiStatus configError(const std::string &message)
{
    return {0, "InvalidConfiguration", message};
}

// A value from the file, for a message. An unterminated quote makes a value swallow the rest
// of the file, tokens included; so only something that looks like a name (one word, at most
// 100 characters) is quoted, anything else is described. Messages are scrubbed of every secret
// of the files besides (Kubeconfig::redacted).
std::string shown(const std::string &s)
{
    bool name = s.size() <= 100;
    bool space = false;
    for (unsigned char c : s) {
        if (c <= ' ' || c == 0x7f)
            name = false;
        space = space || c == ' ' || c == '\n' || c == '\t';
    }
    if (name)
        return "\"" + s + "\"";
    return "(a value of " + std::to_string(s.size()) + " characters, not shown" +
           (space ? "; is a quote left open?" : "") + ")";
}

// "user:password" from a URL, percent-decoded as Go's url.Parse does it.
std::pair<std::string, std::string> splitUserInfo(const std::string &userinfo)
{
    auto decode = [](const std::string &s) {
        std::string out;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
                out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else {
                out += s[i];
            }
        }
        return out;
    };
    const auto colon = userinfo.find(':');
    if (colon == std::string::npos)
        return {decode(userinfo), {}};
    return {decode(userinfo.substr(0, colon)), decode(userinfo.substr(colon + 1))};
}

Result<std::string> readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        return configError(std::string(std::strerror(err ? err : ENOENT)));
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        return configError("read error");
    return ss.str();
}

} // namespace detail

using detail::configError;
using detail::readFile;
using detail::shown;
using detail::splitUserInfo;

namespace {

constexpr const char *kExecExtensionName = "client.authentication.k8s.io/exec";

// The values a message must never contain, read from the text itself so that a value another
// value swallowed (through an open quote) is still known: every scalar under a key that holds
// a credential, and the userinfo of every URL.
std::vector<std::string> secretsInText(const std::string &text)
{
    static const std::set<std::string> keys = {"token",        "password",      "client-key-data",
                                               "id-token",     "refresh-token", "client-secret",
                                               "access-token", "value"};
    std::vector<std::string> out;
    auto add = [&](std::string v) {
        while (!v.empty() && (v.back() == ' ' || v.back() == '\r' || v.back() == '\t'))
            v.pop_back();
        if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
            v = v.substr(1, v.size() - 2);
        else if (!v.empty() && (v.front() == '\'' || v.front() == '"'))
            v = v.substr(1); // an open quote
        if (v.size() >= 4)
            out.push_back(std::move(v));
    };
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::size_t b = line.find_first_not_of(" \t-");
        if (b == std::string::npos)
            continue;
        const auto colon = line.find(':', b);
        if (colon == std::string::npos)
            continue;
        std::string key = line.substr(b, colon - b);
        if (key.size() >= 2 && (key.front() == '"' || key.front() == '\''))
            key = key.substr(1, key.size() - 2);
        if (!keys.count(key))
            continue;
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        if (const auto hash = value.find(" #"); hash != std::string::npos)
            value.erase(hash);
        add(value);
    }
    for (std::size_t at = text.find("://"); at != std::string::npos; at = text.find("://", at + 3)) {
        const auto end = text.find_first_of("/ \t\r\n'\"", at + 3);
        const std::string authority =
            text.substr(at + 3, end == std::string::npos ? std::string::npos : end - at - 3);
        const auto userEnd = authority.rfind('@');
        if (userEnd == std::string::npos)
            continue;
        const std::string userinfo = authority.substr(0, userEnd);
        add(userinfo);
        if (const auto c = userinfo.find(':'); c != std::string::npos)
            add(userinfo.substr(c + 1));
    }
    return out;
}

const char *nodeKindName(const YAML::Node &n)
{
    switch (n.Type()) {
    case YAML::NodeType::Map:
        return "a mapping";
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Null:
        return "null";
    default:
        return "a string";
    }
}

// Reads one kubeconfig document with the types kubectl's decoder enforces. Every error names
// the file, line:column and the field path; values are never quoted (they may be secrets).
class FileParser
{
public:
    FileParser(std::string file, std::string dir) : m_file(std::move(file)), m_dir(std::move(dir)) {}

    Kubeconfig::Location at(const YAML::Node &n) const
    {
        const YAML::Mark m = n.Mark();
        if (m.line < 0)
            return {m_file, 0, 0};
        return {m_file, m.line + 1, m.column + 1};
    }

    ApiStatus fail(const YAML::Node &n, const std::string &field, const std::string &what) const
    {
        return configError(at(n).text() + ": field " + field + ": " + what);
    }

    // A string field: null and absent read as "", numbers and booleans are errors as in Go.
    Result<std::string> str(const YAML::Node &n, const std::string &field) const
    {
        if (!n.IsDefined() || n.IsNull())
            return std::string();
        if (!n.IsScalar())
            return fail(n, field, std::string("expected a string, found ") + nodeKindName(n));
        const std::string &tag = n.Tag();
        if (tag == "?") {
            const auto kind = kube::resolvePlainScalar(n.Scalar()).kind;
            if (kind == kube::PlainScalarKind::Int || kind == kube::PlainScalarKind::Float)
                return fail(n, field, "expected a string, found a number (quote it)");
            if (kind == kube::PlainScalarKind::Bool)
                return fail(n, field, "expected a string, found a boolean (quote it)");
            if (kind == kube::PlainScalarKind::Null)
                return std::string();
        }
        return n.Scalar();
    }

    Result<bool> boolean(const YAML::Node &n, const std::string &field) const
    {
        if (!n.IsDefined() || n.IsNull())
            return false;
        if (n.IsScalar() && n.Tag() == "?") {
            const auto ps = kube::resolvePlainScalar(n.Scalar());
            if (ps.kind == kube::PlainScalarKind::Bool)
                return ps.value.get<bool>();
            if (ps.kind == kube::PlainScalarKind::Null)
                return false;
        }
        return fail(n, field, "expected true or false");
    }

    Result<std::vector<std::string>> strList(const YAML::Node &n, const std::string &field) const
    {
        std::vector<std::string> out;
        if (!n.IsDefined() || n.IsNull())
            return out;
        if (!n.IsSequence())
            return fail(n, field, std::string("expected a list of strings, found ") + nodeKindName(n));
        for (std::size_t i = 0; i < n.size(); ++i) {
            auto s = str(n[i], field + "[" + std::to_string(i) + "]");
            if (!s)
                return s.error();
            out.push_back(std::move(*s));
        }
        return out;
    }

    Result<std::string> base64Data(const YAML::Node &n, const std::string &field) const
    {
        auto text = str(n, field);
        if (!text)
            return text.error();
        std::size_t bad = 0;
        auto decoded = decodeBase64(*text, &bad);
        if (!decoded)
            return fail(n, field,
                        "not valid base64 (illegal data at input byte " + std::to_string(bad) + ")");
        return std::move(*decoded);
    }

    std::string path(const std::string &p) const
    {
        if (p.empty() || p.front() == '/')
            return p;
        return (std::filesystem::path(m_dir) / p).lexically_normal().string();
    }

    // The body of a named-list entry ({name: x, cluster: {...}}): checks the shape and name.
    Result<YAML::Node> entry(const YAML::Node &item, const std::string &list, std::size_t index,
                             const char *bodyKey, std::string &name) const
    {
        const std::string field = list + "[" + std::to_string(index) + "]";
        if (!item.IsMap())
            return fail(item, field, std::string("expected a mapping, found ") + nodeKindName(item));
        auto n = str(item["name"], field + ".name");
        if (!n)
            return n.error();
        if (n->empty())
            return fail(item, field, "entry has no name");
        name = *n;
        YAML::Node body = item[bodyKey];
        if (body.IsDefined() && !body.IsNull() && !body.IsMap())
            return fail(body, field + "." + bodyKey,
                        std::string("expected a mapping, found ") + nodeKindName(body));
        return body;
    }

    Result<Kubeconfig::Cluster> cluster(const YAML::Node &b, const std::string &f) const
    {
        Kubeconfig::Cluster c;
        auto set = [&](const char *key, std::string &dst) -> Result<void> {
            auto v = str(b[key], f + "." + key);
            if (!v)
                return v.error();
            dst = std::move(*v);
            if (b[key].IsDefined())
                c.fields[key] = at(b[key]);
            return {};
        };
        for (auto [key, dst] : {std::pair<const char *, std::string *>{"server", &c.server},
                                {"certificate-authority", &c.certificateAuthority},
                                {"tls-server-name", &c.tlsServerName},
                                {"proxy-url", &c.proxyUrl}}) {
            if (auto r = set(key, *dst); !r)
                return r.error();
        }
        // Credentials in the URL would be printed wherever the server is named: kept apart.
        if (const auto scheme = c.server.find("://"); scheme != std::string::npos) {
            const auto hostEnd = c.server.find_first_of("/?#", scheme + 3);
            const auto at = c.server.rfind('@', hostEnd == std::string::npos ? std::string::npos : hostEnd);
            if (at != std::string::npos && at > scheme) {
                c.serverUserInfo = c.server.substr(scheme + 3, at - scheme - 3);
                c.server.erase(scheme + 3, at - scheme - 2);
            }
        }
        c.certificateAuthority = path(c.certificateAuthority);
        if (b["certificate-authority-data"].IsDefined()) {
            auto d = base64Data(b["certificate-authority-data"], f + ".certificate-authority-data");
            if (!d)
                return d.error();
            c.certificateAuthorityData = std::move(*d);
            c.fields["certificate-authority-data"] = at(b["certificate-authority-data"]);
        }
        auto insecure = boolean(b["insecure-skip-tls-verify"], f + ".insecure-skip-tls-verify");
        if (!insecure)
            return insecure.error();
        c.insecureSkipTlsVerify = *insecure;
        if (b["insecure-skip-tls-verify"].IsDefined())
            c.fields["insecure-skip-tls-verify"] = at(b["insecure-skip-tls-verify"]);
        auto dc = boolean(b["disable-compression"], f + ".disable-compression");
        if (!dc)
            return dc.error();
        c.disableCompression = *dc;
        const YAML::Node ext = b["extensions"];
        if (ext.IsDefined() && !ext.IsNull()) {
            if (!ext.IsSequence())
                return fail(ext, f + ".extensions", "expected a list");
            for (std::size_t i = 0; i < ext.size(); ++i) {
                auto name = str(ext[i]["name"], f + ".extensions[" + std::to_string(i) + "].name");
                if (!name)
                    return name.error();
                if (*name == kExecExtensionName)
                    c.execExtension = toJson(ext[i]["extension"]);
            }
        }
        return c;
    }

    Result<Kubeconfig::User> user(const YAML::Node &b, const std::string &f) const
    {
        Kubeconfig::User u;
        for (auto [key, dst] :
             {std::pair<const char *, std::string *>{"client-certificate", &u.clientCertificate},
              {"client-key", &u.clientKey},
              {"token", &u.token},
              {"tokenFile", &u.tokenFile},
              {"username", &u.username},
              {"password", &u.password},
              {"as", &u.impersonate},
              {"as-uid", &u.impersonateUid}}) {
            auto v = str(b[key], f + "." + key);
            if (!v)
                return v.error();
            *dst = std::move(*v);
            if (b[key].IsDefined())
                u.fields[key] = at(b[key]);
        }
        u.clientCertificate = path(u.clientCertificate);
        u.clientKey = path(u.clientKey);
        u.tokenFile = path(u.tokenFile);
        for (auto [key, dst] :
             {std::pair<const char *, std::string *>{"client-certificate-data", &u.clientCertificateData},
              {"client-key-data", &u.clientKeyData}}) {
            if (!b[key].IsDefined())
                continue;
            auto d = base64Data(b[key], f + "." + key);
            if (!d)
                return d.error();
            *dst = std::move(*d);
            u.fields[key] = at(b[key]);
        }
        auto groups = strList(b["as-groups"], f + ".as-groups");
        if (!groups)
            return groups.error();
        u.impersonateGroups = std::move(*groups);
        const YAML::Node extra = b["as-user-extra"];
        if (extra.IsDefined() && !extra.IsNull()) {
            if (!extra.IsMap())
                return fail(extra, f + ".as-user-extra", "expected a mapping of string lists");
            for (auto it = extra.begin(); it != extra.end(); ++it) {
                const std::string key = it->first.Scalar();
                auto values = strList(it->second, f + ".as-user-extra." + key);
                if (!values)
                    return values.error();
                u.impersonateExtra[key] = std::move(*values);
            }
        }
        const YAML::Node ap = b["auth-provider"];
        if (ap.IsDefined() && !ap.IsNull()) {
            if (!ap.IsMap())
                return fail(ap, f + ".auth-provider", "expected a mapping");
            auto name = str(ap["name"], f + ".auth-provider.name");
            if (!name)
                return name.error();
            u.authProvider = name->empty() ? std::string("(unnamed)") : *name;
            u.fields["auth-provider"] = at(ap);
        }
        const YAML::Node ex = b["exec"];
        if (ex.IsDefined() && !ex.IsNull()) {
            if (!ex.IsMap())
                return fail(ex, f + ".exec", std::string("expected a mapping, found ") + nodeKindName(ex));
            u.fields["exec"] = at(ex);
            auto e = execEntry(ex, f);
            if (!e)
                return e.error();
            u.exec = std::move(*e);
        }
        return u;
    }

    // The body of a user's exec entry (f names the user).
    Result<Kubeconfig::ExecEntry> execEntry(const YAML::Node &ex, const std::string &f) const
    {
        Kubeconfig::ExecEntry e;
        for (auto [key, dst] : {std::pair<const char *, std::string *>{"apiVersion", &e.apiVersion},
                                {"command", &e.command},
                                {"installHint", &e.installHint},
                                {"interactiveMode", &e.interactiveMode}}) {
            auto v = str(ex[key], f + ".exec." + key);
            if (!v)
                return v.error();
            *dst = std::move(*v);
        }
        // A command with a path separator is relative to the kubeconfig; a bare name is
        // looked up in PATH when it runs.
        if (e.command.find('/') != std::string::npos)
            e.command = path(e.command);
        auto args = strList(ex["args"], f + ".exec.args");
        if (!args)
            return args.error();
        e.args = std::move(*args);
        auto pci = boolean(ex["provideClusterInfo"], f + ".exec.provideClusterInfo");
        if (!pci)
            return pci.error();
        e.provideClusterInfo = *pci;
        const YAML::Node env = ex["env"];
        if (env.IsDefined() && !env.IsNull()) {
            if (!env.IsSequence())
                return fail(env, f + ".exec.env", "expected a list of {name, value}");
            for (std::size_t i = 0; i < env.size(); ++i) {
                const std::string ef = f + ".exec.env[" + std::to_string(i) + "]";
                if (!env[i].IsMap())
                    return fail(env[i], ef, "expected a mapping with name and value");
                auto name = str(env[i]["name"], ef + ".name");
                if (!name)
                    return name.error();
                auto value = str(env[i]["value"], ef + ".value");
                if (!value)
                    return value.error();
                if (name->empty())
                    return fail(env[i], ef + ".name", "an exec environment variable needs a name");
                e.env.emplace_back(std::move(*name), std::move(*value));
            }
        }
        return e;
    }

    static kube::Json toJson(const YAML::Node &n)
    {
        switch (n.Type()) {
        case YAML::NodeType::Map: {
            kube::Json j = kube::Json::object();
            for (auto it = n.begin(); it != n.end(); ++it)
                j[it->first.Scalar()] = toJson(it->second);
            return j;
        }
        case YAML::NodeType::Sequence: {
            kube::Json j = kube::Json::array();
            for (const auto &item : n)
                j.push_back(toJson(item));
            return j;
        }
        case YAML::NodeType::Scalar:
            if (n.Tag() == "?")
                return kube::resolvePlainScalar(n.Scalar()).value;
            return n.Scalar();
        default:
            return nullptr;
        }
    }

private:
    std::string m_file;
    std::string m_dir;
};

// Within one file a name may appear once (kubectl: "duplicate name in list"); across
// files the first definition wins.
template <typename Take>
Result<void> eachEntry(const FileParser &p, const YAML::Node &root, const char *list, const char *bodyKey,
                       Take &&take)
{
    const YAML::Node seq = root[list];
    if (!seq.IsDefined() || seq.IsNull())
        return {};
    if (!seq.IsSequence())
        return p.fail(seq, list, std::string("expected a list, found ") + nodeKindName(seq));
    std::set<std::string> names;
    for (std::size_t i = 0; i < seq.size(); ++i) {
        std::string name;
        auto body = p.entry(seq[i], list, i, bodyKey, name);
        if (!body)
            return body.error();
        if (!names.insert(name).second)
            return p.fail(seq[i], std::string(list) + "[" + std::to_string(i) + "]",
                          "duplicate name " + shown(name) + " in " + list);
        const std::string field = std::string(list) + "[" + std::to_string(i) + "]." + bodyKey;
        if (auto r = take(name, *body, field, p.at(seq[i])); !r)
            return r.error();
    }
    return {};
}

// The file's clusters into `clusters`, where a name already there keeps its entry.
Result<void> mergeClusters(const FileParser &p, const YAML::Node &root,
                           std::map<std::string, Kubeconfig::Cluster> &clusters)
{
    return eachEntry(p, root, "clusters", "cluster",
                     [&](const std::string &name, const YAML::Node &body, const std::string &field,
                         const Kubeconfig::Location &where) -> Result<void> {
                         auto c = p.cluster(body, field);
                         if (!c)
                             return c.error();
                         c->name = name;
                         c->where = where;
                         clusters.emplace(name, std::move(*c)); // first file wins
                         return {};
                     });
}

// The file's users into `users`, where a name already there keeps its entry.
Result<void> mergeUsers(const FileParser &p, const YAML::Node &root,
                        std::map<std::string, Kubeconfig::User> &users)
{
    return eachEntry(p, root, "users", "user",
                     [&](const std::string &name, const YAML::Node &body, const std::string &field,
                         const Kubeconfig::Location &where) -> Result<void> {
                         auto u = p.user(body, field);
                         if (!u)
                             return u.error();
                         u->name = name;
                         u->where = where;
                         users.emplace(name, std::move(*u));
                         return {};
                     });
}

// The file's contexts into `contexts`, where a name already there keeps its entry.
Result<void> mergeContexts(const FileParser &p, const YAML::Node &root,
                           std::map<std::string, Kubeconfig::Context> &contexts)
{
    return eachEntry(p, root, "contexts", "context",
                     [&](const std::string &name, const YAML::Node &body, const std::string &field,
                         const Kubeconfig::Location &where) -> Result<void> {
                         Kubeconfig::Context c;
                         c.name = name;
                         c.where = where;
                         for (auto [key, dst] :
                              {std::pair<const char *, std::string *>{"cluster", &c.cluster},
                               {"user", &c.user},
                               {"namespace", &c.namespace_}}) {
                             auto v = p.str(body[key], field + "." + key);
                             if (!v)
                                 return v.error();
                             *dst = std::move(*v);
                         }
                         contexts.emplace(name, std::move(c));
                         return {};
                     });
}

std::string envOr(const std::optional<std::string> &given, const char *name, bool &isSet)
{
    if (given) {
        isSet = true;
        return *given;
    }
    const char *v = std::getenv(name);
    isSet = v != nullptr;
    return v ? std::string(v) : std::string();
}

} // namespace

std::string Kubeconfig::Location::text() const
{
    if (line <= 0)
        return file;
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::vector<std::string> Kubeconfig::filesFor(const KubeconfigOptions &options)
{
    if (!options.explicitPath.empty())
        return {options.explicitPath};
    bool envSet = false;
    const std::string env = envOr(options.kubeconfigEnv, "KUBECONFIG", envSet);
    if (envSet && !env.empty()) {
        std::vector<std::string> out;
        std::set<std::string> seen;
        std::size_t start = 0;
        while (start <= env.size()) {
            std::size_t end = env.find(':', start);
            if (end == std::string::npos)
                end = env.size();
            std::string item = env.substr(start, end - start);
            if (!item.empty() && seen.insert(item).second)
                out.push_back(item);
            start = end + 1;
        }
        return out;
    }
    bool homeSet = false;
    const std::string home = envOr(options.home, "HOME", homeSet);
    if (home.empty())
        return {};
    return {home + "/.kube/config"};
}

Result<Kubeconfig> Kubeconfig::load(const KubeconfigOptions &options)
{
    return loadFiles(filesFor(options), !options.explicitPath.empty());
}

Result<Kubeconfig> Kubeconfig::loadFiles(const std::vector<std::string> &files, bool mustExist)
{
    Kubeconfig cfg;
    for (const auto &file : files) {
        std::error_code ec;
        if (!std::filesystem::exists(file, ec)) {
            if (mustExist)
                return configError("kubeconfig " + file + " does not exist");
            continue;
        }
        if (auto r = cfg.mergeFile(file); !r)
            return cfg.redacted(r.error());
    }
    return cfg;
}

Result<void> Kubeconfig::mergeFile(const std::string &path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return configError("kubeconfig " + path + " is a directory, not a file");
    auto text = readFile(path);
    if (!text)
        return configError("cannot read kubeconfig " + path + ": " + text.error().message);
    m_files.push_back(path);
    for (auto &secret : secretsInText(*text))
        m_secrets.push_back(std::move(secret));
    const std::string dir = std::filesystem::absolute(std::filesystem::path(path), ec).parent_path().string();
    FileParser p(path, dir);

    YAML::Node root;
    try {
        root = YAML::Load(*text);
    } catch (const YAML::Exception &e) {
        // yaml-cpp's marks are 0-based.
        return configError(path + ":" + std::to_string(e.mark.line + 1) + ":" +
                           std::to_string(e.mark.column + 1) + ": not valid YAML: " + e.msg);
    }
    try {
        if (!root.IsDefined() || root.IsNull())
            return {}; // an empty file is an empty configuration
        if (!root.IsMap())
            return configError(p.at(root).text() +
                               ": not a kubeconfig: expected a mapping with clusters, users "
                               "and contexts, found " +
                               nodeKindName(root));
        auto kind = p.str(root["kind"], "kind");
        if (!kind)
            return kind.error();
        if (!kind->empty() && *kind != "Config")
            return p.fail(root["kind"], "kind", "expected Config, found " + shown(*kind));
        auto apiVersion = p.str(root["apiVersion"], "apiVersion");
        if (!apiVersion)
            return apiVersion.error();
        if (!apiVersion->empty() && *apiVersion != "v1")
            return p.fail(root["apiVersion"], "apiVersion", "expected v1, found " + shown(*apiVersion));
        auto current = p.str(root["current-context"], "current-context");
        if (!current)
            return current.error();
        if (m_currentContext.empty() && !current->empty()) {
            m_currentContext = *current;
            m_currentContextFile = path;
        }

        if (auto r = mergeClusters(p, root, m_clusters); !r)
            return r.error();
        if (auto r = mergeUsers(p, root, m_users); !r)
            return r.error();
        if (auto r = mergeContexts(p, root, m_contexts); !r)
            return r.error();
    } catch (const YAML::Exception &e) {
        return configError(path + ":" + std::to_string(e.mark.line + 1) + ":" +
                           std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
    return {};
}

kube::ApiStatus Kubeconfig::redacted(kube::ApiStatus status, const RestConfig *resolved) const
{
    std::vector<std::string> secrets = m_secrets;
    auto add = [&](const std::string &s) {
        if (s.size() >= 4)
            secrets.push_back(s);
    };
    for (const auto &[name, u] : m_users) {
        for (const std::string *s : {&u.token, &u.password, &u.clientKeyData})
            add(*s);
        if (u.exec)
            for (const auto &[k, v] : u.exec->env)
                add(v);
    }
    for (const auto &[name, c] : m_clusters) {
        add(c.serverUserInfo);
        const auto [user, password] = splitUserInfo(c.serverUserInfo);
        add(password);
    }
    if (resolved) {
        add(resolved->token);
        add(resolved->password);
    }
    // Longest first, so a secret that contains another is removed whole.
    std::sort(secrets.begin(), secrets.end(),
              [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
    for (const auto &secret : secrets) {
        for (auto at = status.message.find(secret); at != std::string::npos;
             at = status.message.find(secret, at))
            status.message.replace(at, secret.size(), "[redacted]");
    }
    return status;
}

} // namespace client
