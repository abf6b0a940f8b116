#include "models/sim/nodeupgraderuntime.h"
#include "models/kube/jsonfield.h"

#include <algorithm>
#include <cstdio>

namespace sim {

using kube::ApiStatus;
using kube::Json;

namespace {

std::string jsonText(const Json &j)
{
    return j.is_string() ? j.get<std::string>() : j.dump();
}

} // namespace

NodeUpgradeRuntime::NodeUpgradeRuntime(Cluster &cluster, NodeUpgradeRuntimeOptions options)
    : m_cluster(cluster), m_options(options), m_store(cluster), m_access(cluster, m_store),
      m_agent(cluster, options.agent), m_controller(std::make_unique<controllers::NodeUpgradeController>(
                                           m_access, m_events, m_metrics, options.controller))
{}

NodeUpgradeRuntime::~NodeUpgradeRuntime() = default;

const controllers::NodeUpgradeMetrics *NodeUpgradeRuntime::metrics(const std::string &rollout) const
{
    auto it = m_metrics.find(rollout);
    return it == m_metrics.end() ? nullptr : &it->second;
}

kube::Result<void> NodeUpgradeRuntime::apply(const Json &rollout)
{
    // The API server assigns uid and creationTimestamp of a new rollout.
    auto r = m_store.apply(rollout, m_cluster.now(), {});
    if (!r)
        return r.error();
    m_metrics.try_emplace(r->metadata.name, m_options.metricsCapacity);
    if (m_controller)
        m_controller->pass();
    return {};
}

void NodeUpgradeRuntime::stopController()
{
    if (!m_controller)
        return;
    const auto &past = m_controller->divergences();
    m_pastDivergences.insert(m_pastDivergences.end(), past.begin(), past.end());
    m_controller.reset();
}

void NodeUpgradeRuntime::restartController()
{
    stopController();
    m_controller = std::make_unique<controllers::NodeUpgradeController>(m_access, m_events, m_metrics,
                                                                        m_options.controller);
    m_controller->setObserver(m_observer);
}

std::vector<std::string> NodeUpgradeRuntime::divergences() const
{
    std::vector<std::string> out = m_pastDivergences;
    if (m_controller) {
        const auto &now = m_controller->divergences();
        out.insert(out.end(), now.begin(), now.end());
    }
    return out;
}

void NodeUpgradeRuntime::setObserver(controllers::NodeUpgradeObserver *observer)
{
    m_observer = observer;
    if (m_controller)
        m_controller->setObserver(observer);
}

kube::Result<void> NodeUpgradeRuntime::upgradeStep(const Json &args)
{
    if (!args.is_object())
        return ApiStatus::badRequest("upgrade must be a map");
    // A scenario step that omits `paused` means "not paused": an earlier pause is lifted only
    // by upgradeControl resume, so keep the stored value when the key is absent.
    Json merged = args;
    if (const auto *existing = m_store.get(kube::stringOr(args, "name"))) {
        if (!args.contains("paused"))
            merged["paused"] = existing->spec.paused;
        if (!args.contains("abort"))
            merged["abort"] = existing->spec.abort;
    }
    return apply(merged);
}

kube::Result<void> NodeUpgradeRuntime::restartNodeStep(const Json &args)
{
    const std::string node = kube::stringOr(args, "node");
    const std::string version = kube::stringOr(args, "version");
    if (!m_cluster.node(node))
        return ApiStatus::notFound("nodes", node);
    if (version.empty())
        return ApiStatus::badRequest("restartNode: version must not be empty");
    m_agent.restartOn(node, version);
    return {};
}

kube::Result<void> NodeUpgradeRuntime::upgradeControlStep(const Json &args)
{
    if (!args.is_object())
        return ApiStatus::badRequest("upgradeControl must be a map");
    if (!m_controller)
        return ApiStatus::badRequest("upgradeControl: no node-upgrade controller runs here");
    return m_controller->control(kube::stringOr(args, "name"), kube::stringOr(args, "action"),
                                 kube::stringOr(args, "node"), "admin", kube::stringOr(args, "note"));
}

bool NodeUpgradeRuntime::upgradeComplete(const std::string &name) const
{
    const auto *r = m_store.get(name);
    return r && (r->status.phase == api::RolloutPhase::Completed ||
                 r->status.phase == api::RolloutPhase::CompletedWithExceptions);
}

const std::vector<std::string> &NodeUpgradeRuntime::expectNodeKeys()
{
    static const std::vector<std::string> keys = {
        "phase",  "cordoned", "held", "blocked", "reason", "attempt", "agentVersion", "cordonedByController",
        "tainted"};
    return keys;
}

const std::vector<std::string> &NodeUpgradeRuntime::expectUpgradeKeys()
{
    static const std::vector<std::string> keys = {"phase",
                                                  "nodes",
                                                  "upToDate",
                                                  "upgraded",
                                                  "inFlight",
                                                  "pending",
                                                  "held",
                                                  "blocked",
                                                  "failed",
                                                  "skipped",
                                                  "unavailable",
                                                  "maxUnavailable",
                                                  "maxUnavailableClamped",
                                                  "observedGeneration",
                                                  "headline",
                                                  "queue"};
    return keys;
}

std::string NodeUpgradeRuntime::nodePhase(const std::string &node) const
{
    if (const kube::Node *n = m_cluster.node(node)) {
        const std::string p = n->metadata.annotation(api::ann::kPhase);
        return p.empty() ? std::string("UpToDate") : p;
    }
    for (const auto *r : m_store.list())
        if (std::find(r->status.removedNodes.begin(), r->status.removedNodes.end(), node) !=
            r->status.removedNodes.end())
            return "Removed";
    return {};
}

std::vector<std::string> NodeUpgradeRuntime::checkExpectNode(const Json &expect) const
{
    std::vector<std::string> out;
    if (!expect.is_object())
        return {"expect.node must be a map of node name to fields"};
    for (const auto &[name, fields] : expect.items()) {
        const std::string path = "node/" + name;
        const kube::Node *n = m_cluster.node(name);
        const std::string phase = nodePhase(name);
        if (phase.empty()) {
            out.push_back(path + ": no such node");
            continue;
        }
        for (const auto &[k, want] : fields.items()) {
            Json got;
            if (k == "phase") {
                got = phase;
            } else if (!n) {
                got = nullptr;
            } else if (k == "cordoned") {
                got = n->unschedulable;
            } else if (k == "held") {
                got = n->metadata.annotation(api::ann::kHold) == "true";
            } else if (k == "blocked") {
                auto p = api::nodePhaseFromString(phase);
                got = !n->metadata.annotation(api::ann::kBlocked).empty() && p && api::isPreRestart(*p);
            } else if (k == "reason") {
                std::string r = n->metadata.annotation(api::ann::kReason);
                if (r.empty())
                    r = n->metadata.annotation(api::ann::kBlocked);
                got = r;
            } else if (k == "attempt") {
                const std::string a = n->metadata.annotation(api::ann::kAttempt);
                got = a.empty() ? 0 : std::atoi(a.c_str());
            } else if (k == "agentVersion") {
                got = n->kubeletVersion;
            } else if (k == "cordonedByController") {
                got = n->metadata.annotation(api::ann::kCordonedByController) == "true";
            } else if (k == "tainted") {
                bool t = false;
                for (const auto &taint : n->taints)
                    t = t || taint.key == api::kPendingTaintKey;
                got = t;
            } else {
                out.push_back(path + "." + k + ": unknown field");
                continue;
            }
            if (got != want)
                out.push_back(path + "." + k + ": expected " + jsonText(want) + ", got " + jsonText(got));
        }
    }
    return out;
}

std::vector<std::string> NodeUpgradeRuntime::checkExpectUpgrade(const Json &expect) const
{
    std::vector<std::string> out;
    if (!expect.is_object())
        return {"expect.upgrade must be a map of rollout name to fields"};
    for (const auto &[name, fields] : expect.items()) {
        const std::string path = "upgrade/" + name;
        const auto *r = m_store.get(name);
        if (!r) {
            out.push_back(path + ": no such rollout");
            continue;
        }
        const Json status = r->status.toJson();
        for (const auto &[k, want] : fields.items()) {
            Json got;
            if (k == "maxUnavailable")
                got = r->status.maxUnavailableResolved;
            else if (k == "headline") {
                const std::string h = r->status.headline;
                if (!want.is_string() || h.find(want.get<std::string>()) == std::string::npos)
                    out.push_back(path + ".headline: expected to contain " + jsonText(want) + ", got \"" + h +
                                  "\"");
                continue;
            } else if (status.contains(k))
                got = status[k];
            else {
                out.push_back(path + "." + k + ": unknown field");
                continue;
            }
            if (got != want)
                out.push_back(path + "." + k + ": expected " + jsonText(want) + ", got " + jsonText(got));
        }
    }
    return out;
}

std::vector<EmittedEvent> NodeUpgradeRuntime::takeRolloutEvents()
{
    std::vector<EmittedEvent> out;
    const auto &emissions = m_events.emissions();
    for (; m_rolloutEventsTaken < emissions.size(); ++m_rolloutEventsTaken) {
        const auto &[time, index] = emissions[m_rolloutEventsTaken];
        const auto &e = m_events.entries()[index];
        if (e.object.rfind("nodeupgraderollout/", 0) == 0)
            out.push_back({time, e.object, e.type, e.reason, e.message});
    }
    return out;
}

std::string NodeUpgradeRuntime::statusText(const std::string &name)
{
    const auto *r = m_store.get(name);
    if (!r)
        return {};
    const auto &st = r->status;
    std::string out;
    out += "Rollout " + name + " -> " + r->spec.targetVersion + ": " + api::rolloutPhaseName(st.phase) +
           " (generation " + std::to_string(r->metadata.generation) + ", observed " +
           std::to_string(st.observedGeneration) + ")\n";
    out += "Headline: " + st.headline + "\n";
    const auto &c = st.counts;
    out += "Nodes: " + std::to_string(c.nodes) + "  upToDate: " + std::to_string(c.upToDate) +
           "  upgraded: " + std::to_string(c.upgraded) + "  inFlight: " + std::to_string(c.inFlight) +
           "  pending: " + std::to_string(c.pending) + "  held: " + std::to_string(c.held) +
           "  blocked: " + std::to_string(c.blocked) + "  failed: " + std::to_string(c.failed) +
           "  skipped: " + std::to_string(c.skipped) + "\n";
    out += "Unavailable: " + std::to_string(st.unavailable) + "/" +
           std::to_string(st.maxUnavailableResolved) + " (maxUnavailable " +
           r->spec.maxUnavailable.toString() +
           (st.maxUnavailableClamped ? ", resolved to 0 and clamped to 1" : "") + ")\n";
    if (st.eta)
        out += "ETA: " + kube::formatDuration(*st.eta) + "\n";
    out += "Conditions:";
    for (const auto &cond : st.conditions)
        out += " " + cond.type + "=" + cond.status + "(" + cond.reason + ")";
    out += "\n";
    if (m_controller && (st.phase == api::RolloutPhase::Paused || st.phase == api::RolloutPhase::Halted)) {
        const auto p = m_controller->preview(name);
        out += "Resume preview: " + p.summary() + "\n";
    }
    if (!st.removedNodes.empty()) {
        out += "Removed:";
        for (const auto &n : st.removedNodes)
            out += " " + n;
        out += "\n";
    }
    out += "\n";
    const std::vector<std::string> header = {"NODE",     "ZONE",    "QUEUE",  "PHASE",  "IN PHASE",
                                             "DEADLINE", "ATTEMPT", "CORDON", "REASON", "BLOCKERS"};
    std::vector<std::vector<std::string>> rows = {header};
    for (const auto &row :
         m_controller ? m_controller->table(name) : std::vector<controllers::NodeUpgradeRow>{}) {
        std::string phase = api::nodePhaseName(row.phase);
        if (row.held)
            phase += "+Held";
        if (row.blocked)
            phase += "+Blocked";
        const std::string blockers = api::english(api::Phrase::list(row.blockers, "; "));
        const std::string owner = cordonOwnerName(row.cordonOwner);
        rows.push_back({row.name, row.zone.empty() ? "-" : row.zone,
                        row.queuePosition ? std::to_string(row.queuePosition) : "-", phase,
                        row.phase == api::NodePhase::UpToDate ? "-" : kube::humanAge(row.timeInPhase),
                        row.nextDeadline.empty() ? "-" : api::english(row.nextDeadline),
                        row.attempt ? std::to_string(row.attempt) : "-", owner.empty() ? "-" : owner,
                        row.reason.empty() ? "-" : api::english(row.reason),
                        blockers.empty() ? "-" : blockers});
    }
    std::vector<std::size_t> width(header.size(), 0);
    for (const auto &row : rows)
        for (std::size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    for (const auto &row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size())
                line += std::string(width[i] - row[i].size() + 3, ' ');
        }
        out += line + "\n";
    }
    return out;
}

} // namespace sim
