#include "models/api/kubectlrollout.h"
#include "models/kube/jsonfield.h"

#include "models/api/daemonsetlogic.h"
#include "models/api/strategicmerge.h"
#include "models/kube/jsonlimits.h"

#include <algorithm>
#include <sstream>

namespace api {

using kube::ControllerRevision;
using kube::Json;

std::vector<const ControllerRevision *>
controlledRevisions(const kube::DaemonSet &ds, const std::vector<const ControllerRevision *> &candidates)
{
    std::vector<const ControllerRevision *> out;
    auto sel = ds.selector();
    if (!sel)
        return out;
    for (const auto *cr : candidates) {
        if (cr->metadata.namespace_ != ds.metadata.namespace_ || !sel->matches(cr->metadata.labels))
            continue;
        const auto *ref = cr->metadata.controllerRef();
        if (ref && ref->uid == ds.metadata.uid)
            out.push_back(cr);
    }
    std::sort(out.begin(), out.end(), [](const ControllerRevision *a, const ControllerRevision *b) {
        return a->revision != b->revision ? a->revision < b->revision : a->metadata.name < b->metadata.name;
    });
    return out;
}

std::string RollbackOutcome::kubectlOutput(const std::string &dsName) const
{
    if (action == Action::Error)
        return "error: " + message;
    return "daemonset.apps/" + dsName + " " + message;
}

RollbackOutcome decideRollback(const kube::DaemonSet &ds,
                               const std::vector<const ControllerRevision *> &revisions,
                               std::int64_t toRevision)
{
    RollbackOutcome o;
    o.requestedRevision = toRevision;
    const std::string notFound =
        "unable to find specified revision " + std::to_string(toRevision) + " in history";
    if (toRevision < 0) {
        o.message = notFound;
        return o;
    }
    if (toRevision == 0 && revisions.size() <= 1) {
        o.message = "no last revision to roll back to";
        return o;
    }
    const ControllerRevision *target = nullptr;
    if (toRevision == 0) {
        target = revisions[revisions.size() - 2]; // revisions are sorted ascending
    } else {
        for (const auto *cr : revisions)
            if (cr->revision == toRevision) {
                target = cr;
                break;
            }
    }
    if (!target) {
        o.message = notFound;
        return o;
    }
    o.targetRevision = target->revision;
    o.targetName = target->metadata.name;
    if (matchRevision(ds, *target)) {
        o.action = RollbackOutcome::Action::Skip;
        o.message =
            "skipped rollback (current template already matches revision " + std::to_string(toRevision) + ")";
        return o;
    }
    o.action = RollbackOutcome::Action::Patch;
    o.patch = target->data;
    o.message = "rolled back";
    return o;
}

std::string historyTable(const std::string &dsName, const std::vector<const ControllerRevision *> &revisions)
{
    std::string out = "daemonset.apps/" + dsName + " \n";
    if (revisions.empty())
        return out + "No rollout history found.\n";
    // revision -> CR; a duplicate number keeps the later one, as kubectl's map does.
    std::map<std::int64_t, const ControllerRevision *> byRevision;
    for (const auto *cr : revisions)
        byRevision[cr->revision] = cr;
    std::size_t width = std::string("REVISION").size();
    for (const auto &[rev, cr] : byRevision)
        width = std::max(width, std::to_string(rev).size());
    width += 2; // tabwriter padding
    auto pad = [&](std::string s) {
        s.resize(width, ' ');
        return s;
    };
    out += pad("REVISION") + "CHANGE-CAUSE\n";
    for (const auto &[rev, cr] : byRevision) {
        // printHistory: a missing or empty change-cause prints <none>.
        std::string cause = cr->metadata.annotation(kube::kChangeCauseAnnotation);
        if (cause.empty())
            cause = "<none>";
        out += pad(std::to_string(rev)) + cause + "\n";
    }
    return out + "\n";
}

namespace {

std::string str(const Json &j, const char *key)
{
    if (!j.is_object())
        return {};
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    return it->dump();
}

std::string quantity(const Json &v)
{
    return v.is_string() ? v.get<std::string>() : v.dump();
}

void labelsMultiline(std::ostringstream &w, const std::string &title, const Json &labels)
{
    w << title << ":\t";
    if (!labels.is_object() || labels.empty()) {
        w << "<none>\n";
        return;
    }
    bool first = true;
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        if (!first)
            w << "\t";
        first = false;
        w << it.key() << "=" << (it.value().is_string() ? it.value().get<std::string>() : it.value().dump())
          << "\n";
    }
}

void annotationsMultiline(std::ostringstream &w, const std::string &title, const Json &annotations)
{
    constexpr std::size_t maxLen = 140;
    w << title << ":\t";
    bool first = true;
    for (auto it = annotations.begin(); it != annotations.end(); ++it) {
        if (!first)
            w << "\t";
        first = false;
        std::string value = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
        if (!value.empty() && value.back() == '\n')
            value.pop_back();
        if (value.size() + it.key().size() + 2 > maxLen || value.find('\n') != std::string::npos) {
            w << it.key() << ":\n";
            std::istringstream lines(value);
            std::string line;
            while (std::getline(lines, line)) {
                if (line.size() > maxLen - 2) {
                    line.resize(maxLen - 2);
                    line += "...";
                }
                w << "\t  " << line << "\n";
            }
        } else {
            w << it.key() << ": " << value << "\n";
        }
    }
}

std::string describeProbe(const Json &p)
{
    std::ostringstream s;
    auto secs = [&](const char *k, int def) { return std::to_string(p.value(k, def)) + "s"; };
    const std::string attrs = "delay=" + secs("initialDelaySeconds", 0) +
                              " timeout=" + secs("timeoutSeconds", 1) +
                              " period=" + secs("periodSeconds", 10) +
                              " #success=" + std::to_string(kube::integerOr<int>(p, "successThreshold", 1)) +
                              " #failure=" + std::to_string(kube::integerOr<int>(p, "failureThreshold", 3));
    if (p.contains("exec")) {
        std::string cmd;
        for (const auto &c : p["exec"].value("command", Json::array()))
            cmd += (cmd.empty() ? "" : " ") + (c.is_string() ? c.get<std::string>() : c.dump());
        return "exec [" + cmd + "] " + attrs;
    }
    if (p.contains("httpGet")) {
        const Json &h = p["httpGet"];
        std::string scheme = kube::stringOr(h, "scheme", "HTTP");
        for (auto &c : scheme)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return "http-get " + scheme + "://" + str(h, "host") + ":" + str(h, "port") +
               kube::stringOr(h, "path") + " " + attrs;
    }
    if (p.contains("tcpSocket"))
        return "tcp-socket " + str(p["tcpSocket"], "host") + ":" + str(p["tcpSocket"], "port") + " " + attrs;
    if (p.contains("grpc"))
        return "grpc <pod>:" + str(p["grpc"], "port") + " " + str(p["grpc"], "service") + " " + attrs;
    return "unknown " + attrs;
}

void describeContainers(std::ostringstream &w, const std::string &label, const Json &containers)
{
    w << "  " << label << ":" << (containers.is_array() && !containers.empty() ? "" : " <none>") << "\n";
    if (!containers.is_array())
        return;
    for (const auto &c : containers) {
        w << "   " << str(c, "name") << ":\n";
        w << "    Image:\t" << str(c, "image") << "\n";
        std::string ports, hostPorts;
        for (const auto &p : c.value("ports", Json::array())) {
            const std::string proto = kube::stringOr(p, "protocol", "TCP");
            ports += (ports.empty() ? "" : ", ") +
                     std::to_string(kube::integerOr<int>(p, "containerPort", 0)) + "/" + proto;
            hostPorts += (hostPorts.empty() ? "" : ", ") +
                         std::to_string(kube::integerOr<int>(p, "hostPort", 0)) + "/" + proto;
        }
        if (ports.find(',') != std::string::npos)
            w << "    Ports:\t" << ports << "\n";
        else
            w << "    Port:\t" << (ports.empty() ? "<none>" : ports) << "\n";
        if (hostPorts.find(',') != std::string::npos)
            w << "    Host Ports:\t" << hostPorts << "\n";
        else
            w << "    Host Port:\t" << (hostPorts.empty() ? "<none>" : hostPorts) << "\n";
        for (const char *list : {"command", "args"}) {
            const Json v = c.value(list, Json::array());
            if (!v.is_array() || v.empty())
                continue;
            w << "    " << (std::string(list) == "command" ? "Command" : "Args") << ":\n";
            for (const auto &item : v) {
                std::istringstream lines(item.is_string() ? item.get<std::string>() : item.dump());
                std::string line;
                while (std::getline(lines, line))
                    w << "      " << line << "\n";
            }
        }
        const Json res = c.value("resources", Json::object());
        for (const auto &[key, title] : {std::pair{"limits", "Limits"}, std::pair{"requests", "Requests"}}) {
            const Json m = res.value(key, Json::object());
            if (!m.is_object() || m.empty())
                continue;
            w << "    " << title << ":\n";
            for (auto it = m.begin(); it != m.end(); ++it)
                w << "      " << it.key() << ":\t" << quantity(it.value()) << "\n";
        }
        for (const auto &[key, title] :
             {std::pair{"livenessProbe", "Liveness"}, std::pair{"readinessProbe", "Readiness"},
              std::pair{"startupProbe", "Startup"}})
            if (c.contains(key) && c[key].is_object())
                w << "    " << title << ":\t" << describeProbe(c[key]) << "\n";
        const Json env = c.value("env", Json::array());
        w << "    Environment:" << (env.is_array() && !env.empty() ? "" : "\t<none>") << "\n";
        for (const auto &e : env) {
            const std::string name = str(e, "name");
            if (!e.contains("valueFrom")) {
                std::istringstream lines(str(e, "value"));
                std::string line;
                bool first = true;
                while (std::getline(lines, line)) {
                    w << "      " << (first ? name + ":\t" : "\t") << line << "\n";
                    first = false;
                }
                if (first)
                    w << "      " << name << ":\t\n";
                continue;
            }
            const Json &vf = e["valueFrom"];
            if (vf.contains("fieldRef"))
                w << "      " << name << ":\t (" << str(vf["fieldRef"], "apiVersion") << ":"
                  << str(vf["fieldRef"], "fieldPath") << ")\n";
            else if (vf.contains("resourceFieldRef"))
                w << "      " << name << ":\t (" << str(vf["resourceFieldRef"], "resource") << ")\n";
            else if (vf.contains("secretKeyRef"))
                w << "      " << name << ":\t<set to the key '" << str(vf["secretKeyRef"], "key")
                  << "' in secret '" << str(vf["secretKeyRef"], "name") << "'>\tOptional: "
                  << (kube::boolOr(vf["secretKeyRef"], "optional", false) ? "true" : "false") << "\n";
            else if (vf.contains("configMapKeyRef"))
                w << "      " << name << ":\t<set to the key '" << str(vf["configMapKeyRef"], "key")
                  << "' of config map '" << str(vf["configMapKeyRef"], "name") << "'>\tOptional: "
                  << (kube::boolOr(vf["configMapKeyRef"], "optional", false) ? "true" : "false") << "\n";
        }
        Json mounts = c.value("volumeMounts", Json::array());
        w << "    Mounts:" << (mounts.is_array() && !mounts.empty() ? "" : "\t<none>") << "\n";
        if (mounts.is_array()) {
            std::vector<Json> sorted(mounts.begin(), mounts.end());
            std::stable_sort(sorted.begin(), sorted.end(), [](const Json &a, const Json &b) {
                return str(a, "mountPath") < str(b, "mountPath");
            });
            for (const auto &m : sorted) {
                std::string flags = kube::boolOr(m, "readOnly", false) ? "ro" : "rw";
                if (!str(m, "subPath").empty()) {
                    std::string q;
                    kube::appendGoString(q, str(m, "subPath"));
                    flags += ",path=" + q;
                }
                w << "      " << str(m, "mountPath") << " from " << str(m, "name") << " (" << flags << ")\n";
            }
        }
    }
}

void describeVolumes(std::ostringstream &w, const Json &volumes)
{
    if (!volumes.is_array() || volumes.empty()) {
        w << "  Volumes:\t<none>\n";
        return;
    }
    w << "  Volumes:\n";
    for (const auto &v : volumes) {
        w << "   " << str(v, "name") << ":\n";
        if (v.contains("hostPath")) {
            const Json &h = v["hostPath"];
            w << "    Type:\tHostPath (bare host directory volume)\n    Path:\t" << str(h, "path")
              << "\n    HostPathType:\t" << (h.contains("type") ? str(h, "type") : "<none>") << "\n";
        } else if (v.contains("emptyDir")) {
            const Json &e = v["emptyDir"];
            w << "    Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t"
              << str(e, "medium") << "\n    SizeLimit:\t"
              << (e.contains("sizeLimit") ? str(e, "sizeLimit") : "<unset>") << "\n";
        } else if (v.contains("configMap")) {
            const Json &c = v["configMap"];
            w << "    Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t" << str(c, "name")
              << "\n    Optional:\t" << (kube::boolOr(c, "optional", false) ? "true" : "false") << "\n";
        } else if (v.contains("secret")) {
            const Json &s = v["secret"];
            w << "    Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t"
              << str(s, "secretName") << "\n    Optional:\t"
              << (kube::boolOr(s, "optional", false) ? "true" : "false") << "\n";
        } else {
            w << "  <unknown>\n";
        }
    }
}

} // namespace

std::string describePodTemplate(const Json &tpl)
{
    std::ostringstream w;
    w << "Pod Template:\n";
    const Json meta = tpl.is_object() ? tpl.value("metadata", Json::object()) : Json::object();
    const Json spec = tpl.is_object() ? tpl.value("spec", Json::object()) : Json::object();
    labelsMultiline(w, "  Labels", meta.value("labels", Json()));
    const Json ann = meta.value("annotations", Json());
    if (ann.is_object() && !ann.empty())
        annotationsMultiline(w, "  Annotations", ann);
    if (!str(spec, "serviceAccountName").empty())
        w << "  Service Account:\t" << str(spec, "serviceAccountName") << "\n";
    const Json init = spec.value("initContainers", Json());
    if (init.is_array() && !init.empty())
        describeContainers(w, "Init Containers", init);
    describeContainers(w, "Containers", spec.value("containers", Json()));
    describeVolumes(w, spec.value("volumes", Json()));
    if (!str(spec, "priorityClassName").empty())
        w << "  Priority Class Name:\t" << str(spec, "priorityClassName") << "\n";
    labelsMultiline(w, "  Node-Selectors", spec.value("nodeSelector", Json()));
    // Tolerations, sorted by key.
    w << "  Tolerations:\t";
    Json tol = spec.value("tolerations", Json());
    if (!tol.is_array() || tol.empty()) {
        w << "<none>\n";
    } else {
        std::vector<Json> sorted(tol.begin(), tol.end());
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const Json &a, const Json &b) { return str(a, "key") < str(b, "key"); });
        bool first = true;
        for (const auto &t : sorted) {
            if (!first)
                w << "\t";
            first = false;
            w << str(t, "key");
            if (!str(t, "value").empty())
                w << "=" << str(t, "value");
            if (!str(t, "effect").empty())
                w << ":" << str(t, "effect");
            if (str(t, "operator") == "Exists" && str(t, "value").empty())
                w << ((!str(t, "key").empty() || !str(t, "effect").empty()) ? " op=Exists" : "op=Exists");
            if (t.contains("tolerationSeconds") && t["tolerationSeconds"].is_number_integer())
                w << " for " << t["tolerationSeconds"].get<long long>() << "s";
            w << "\n";
        }
    }
    return w.str();
}

kube::Result<std::string> historyRevisionText(const kube::DaemonSet &ds,
                                              const std::vector<const ControllerRevision *> &revisions,
                                              std::int64_t revision)
{
    if (revision < 0)
        return kube::ApiStatus::badRequest("revision must be a positive integer: " +
                                           std::to_string(revision));
    if (revision == 0)
        return historyTable(ds.metadata.name, revisions);
    // printHistory says so before it looks for the revision.
    if (revisions.empty())
        return "daemonset.apps/" + ds.metadata.name + " with revision #" + std::to_string(revision) +
               "\nNo rollout history found.\n";
    const ControllerRevision *target = nullptr;
    for (const auto *cr : revisions)
        if (cr->revision == revision)
            target = cr; // later one wins
    if (!target)
        return kube::ApiStatus{404, "NotFound", "unable to find the specified revision"};
    Json patch = Json::parse(target->data, nullptr, false);
    if (patch.is_discarded())
        return kube::ApiStatus::badRequest("unable to parse history " + target->metadata.name);
    auto applied = strategicMergePatch(ds.toJson(), patch);
    if (!applied)
        return kube::ApiStatus::badRequest("unable to parse history " + target->metadata.name);
    const Json tpl =
        applied->contains("spec") ? (*applied)["spec"].value("template", Json::object()) : Json::object();
    return "daemonset.apps/" + ds.metadata.name + " with revision #" + std::to_string(revision) + "\n" +
           describePodTemplate(tpl) + "\n";
}

RolloutStatus rolloutStatus(const kube::DaemonSet &ds)
{
    RolloutStatus s;
    const std::string &name = ds.metadata.name;
    if (ds.updateStrategyType() != "RollingUpdate") {
        s.done = true;
        s.error = true;
        s.message = "rollout status is only available for RollingUpdate strategy type";
        return s;
    }
    const auto &st = ds.status;
    if (ds.metadata.generation > st.observedGeneration) {
        s.message = "Waiting for daemon set spec update to be observed...";
    } else if (st.updatedNumberScheduled < st.desiredNumberScheduled) {
        s.message = "Waiting for daemon set \"" + name +
                    "\" rollout to finish: " + std::to_string(st.updatedNumberScheduled) + " out of " +
                    std::to_string(st.desiredNumberScheduled) + " new pods have been updated...";
    } else if (st.numberAvailable < st.desiredNumberScheduled) {
        s.message = "Waiting for daemon set \"" + name +
                    "\" rollout to finish: " + std::to_string(st.numberAvailable) + " of " +
                    std::to_string(st.desiredNumberScheduled) + " updated pods are available...";
    } else {
        s.done = true;
        s.message = "daemon set \"" + name + "\" successfully rolled out";
    }
    return s;
}

bool isPaused(const kube::DaemonSet &ds)
{
    return ds.metadata.annotations.count(kPausedStrategyAnnotation) > 0;
}

std::optional<Json> pausePatch(const kube::DaemonSet &ds)
{
    if (isPaused(ds))
        return std::nullopt;
    Json strategy = ds.spec.contains("updateStrategy") && ds.spec["updateStrategy"].is_object()
                        ? ds.spec["updateStrategy"]
                        : Json{{"type", "RollingUpdate"}};
    Json patch;
    patch["metadata"]["annotations"][kPausedStrategyAnnotation] = kube::goJson(strategy);
    patch["spec"]["updateStrategy"] = {{"type", "OnDelete"}, {"rollingUpdate", nullptr}};
    return patch;
}

kube::Result<std::optional<Json>> resumePatch(const kube::DaemonSet &ds)
{
    auto it = ds.metadata.annotations.find(kPausedStrategyAnnotation);
    if (it == ds.metadata.annotations.end())
        return std::optional<Json>();
    auto parsedSaved = kube::JsonLimits::parse(it->second);
    Json saved = parsedSaved ? std::move(parsedSaved).value() : Json();
    if (!saved.is_object())
        return kube::ApiStatus::badRequest("annotation " + std::string(kPausedStrategyAnnotation) +
                                           " does not hold an update strategy object");
    if (!saved.contains("rollingUpdate"))
        saved["rollingUpdate"] = nullptr;
    Json patch;
    patch["metadata"]["annotations"][kPausedStrategyAnnotation] = nullptr;
    patch["spec"]["updateStrategy"] = saved;
    return std::optional<Json>(patch);
}

} // namespace api
