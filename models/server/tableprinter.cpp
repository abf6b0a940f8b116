#include "models/server/tableprinter.h"

#include "models/server/crd.h"

#include "models/kube/labelselector.h"

#include <algorithm>

namespace server {

namespace {

using api::Kind;
using kube::Json;

struct Column
{
    const char *name;
    const char *type;
    const char *format;
    const char *description;
    int priority;
};

const std::vector<Column> &columnsOf(Kind kind)
{
    static const std::vector<Column> ds = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Desired", "integer", "", "The total number of nodes that should be running the daemon pod.", 0},
        {"Current", "integer", "", "The number of nodes that are running at least 1 daemon pod.", 0},
        {"Ready", "integer", "",
         "The number of nodes that should be running the daemon pod and have one or more of the daemon pod "
         "running and ready.",
         0},
        {"Up-to-date", "integer", "", "The total number of nodes that are running updated daemon pod.", 0},
        {"Available", "integer", "",
         "The number of nodes that should be running the daemon pod and have one or more of the daemon pod "
         "running and available.",
         0},
        {"Node Selector", "string", "",
         "NodeSelector is a selector which must be true for the pod to fit on a node.", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
        {"Containers", "string", "", "Names of each container in the template.", 1},
        {"Images", "string", "", "Images referenced by each container in the template.", 1},
        {"Selector", "string", "", "A label query over pods that are managed by the daemon set.", 1},
    };
    static const std::vector<Column> pod = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Ready", "string", "", "The aggregate readiness state of this pod for accepting traffic.", 0},
        {"Status", "string", "", "The aggregate status of the containers in this pod.", 0},
        {"Restarts", "string", "",
         "The number of times the containers in this pod have been restarted and when the last container in "
         "this pod has restarted.",
         0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
        {"IP", "string", "", "IP address allocated to the pod. Routable at least within the cluster.", 1},
        {"Node", "string", "", "NodeName is a request to schedule this pod onto a specific node.", 1},
        {"Nominated Node", "string", "",
         "nominatedNodeName is set when this pod preempts other pods on the node.", 1},
        {"Readiness Gates", "string", "",
         "If specified, all readiness gates will be evaluated for pod readiness.", 1},
    };
    static const std::vector<Column> node = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Status", "string", "", "The status of the node", 0},
        {"Roles", "string", "", "The roles of the node", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
        {"Version", "string", "", "Kubelet Version reported by the node.", 0},
        {"Internal-IP", "string", "", "List of addresses reachable to the node.", 1},
        {"External-IP", "string", "", "List of addresses reachable to the node.", 1},
        {"OS-Image", "string", "",
         "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1},
        {"Kernel-Version", "string", "",
         "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1},
        {"Container-Runtime", "string", "",
         "ContainerRuntime Version reported by the node through runtime remote API (e.g. "
         "containerd://1.4.2).",
         1},
    };
    static const std::vector<Column> cr = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Controller", "string", "", "Controller of the object", 0},
        {"Revision", "integer", "", "Revision indicates the revision of the state represented by Data.", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
    };
    static const std::vector<Column> rs = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Desired", "integer", "", "Replicas is the number of desired replicas.", 0},
        {"Current", "integer", "", "Replicas is the most recently observed number of replicas.", 0},
        {"Ready", "integer", "", "The number of ready replicas for this replica set.", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
        {"Containers", "string", "", "Names of each container in the template.", 1},
        {"Images", "string", "", "Images referenced by each container in the template.", 1},
        {"Selector", "string", "", "Selector is a label query over pods that should match the replica count.",
         1},
    };
    static const std::vector<Column> event = {
        {"Last Seen", "string", "",
         "The time at which the most recent occurrence of this event was recorded.", 0},
        {"Type", "string", "",
         "Type of this event (Normal, Warning), new types could be added in the future.", 0},
        {"Reason", "string", "",
         "This should be a short, machine understandable string that gives the reason for the transition "
         "into the object's current status.",
         0},
        {"Object", "string", "", "The object that this event is about.", 0},
        {"Subobject", "string", "", "The subobject this event is about.", 1},
        {"Source", "string", "", "The component reporting this event.", 1},
        {"Message", "string", "", "A human-readable description of the status of this operation.", 0},
        {"First Seen", "string", "", "The time at which the event was first recorded.", 1},
        {"Count", "string", "", "The number of times this event has occurred.", 1},
        {"Name", "string", "name", "Name must be unique within a namespace.", 1},
    };
    static const std::vector<Column> ns = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Status", "string", "", "The status of the namespace", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
    };
    // As the CustomResourceDefinition's printer columns show it (crd.h: one list for both).
    static const std::vector<Column> nur = [] {
        std::vector<Column> out = {{"Name", "string", "name", "Name must be unique within a namespace.", 0}};
        for (const auto &c : nodeUpgradeRolloutColumns())
            out.push_back({c.name.c_str(), c.type.c_str(), "", c.description.c_str(), c.priority});
        return out;
    }();
    static const std::vector<Column> pdb = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Min Available", "string", "",
         "The number or percentage of the selected pods that must stay available.", 0},
        {"Max Unavailable", "string", "",
         "The number or percentage of the selected pods that may be unavailable.", 0},
        {"Allowed Disruptions", "integer", "", "How many of the selected pods may be disrupted now.", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
    };
    static const std::vector<Column> job = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Status", "string", "", "Status of the job: Running, Complete, Failed or Suspended.", 0},
        {"Completions", "string", "", "The succeeded pods out of the completions the job wants.", 0},
        {"Duration", "string", "", "Time the job ran for: from its start to its completion, or until now.",
         0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
        {"Containers", "string", "", "Names of each container in the template.", 1},
        {"Images", "string", "", "Images referenced by each container in the template.", 1},
        {"Selector", "string", "", "A label query over pods that should match the pod count.", 1},
    };
    static const std::vector<Column> lease = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Holder", "string", "", "holderIdentity contains the identity of the holder of a current lease.", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
    };
    static const std::vector<Column> svc = {
        {"Name", "string", "name", "Name must be unique within a namespace.", 0},
        {"Type", "string", "", "type determines how the Service is exposed.", 0},
        {"Cluster-IP", "string", "", "clusterIP is the IP address of the service.", 0},
        {"External-IP", "string", "",
         "externalIPs is a list of IP addresses for which nodes in the cluster "
         "will also accept traffic for this service.",
         0},
        {"Port(s)", "string", "", "The list of ports that are exposed by this service.", 0},
        {"Age", "string", "",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
        {"Selector", "string", "",
         "Route service traffic to pods with label keys and values matching this "
         "selector.",
         1},
    };
    switch (kind) {
    case Kind::Lease:
        return lease;
    case Kind::Job:
        return job;
    case Kind::Service:
        return svc;
    case Kind::NodeUpgradeRollout:
        return nur;
    case Kind::PodDisruptionBudget:
        return pdb;
    case Kind::DaemonSet:
        return ds;
    case Kind::Pod:
        return pod;
    case Kind::Node:
        return node;
    case Kind::ControllerRevision:
        return cr;
    case Kind::ReplicaSet:
        return rs;
    case Kind::Event:
        return event;
    case Kind::Namespace:
        break;
    }
    return ns;
}

const Json &at(const Json &j, std::initializer_list<const char *> path)
{
    static const Json null;
    const Json *cur = &j;
    for (const char *p : path) {
        if (!cur->is_object())
            return null;
        auto it = cur->find(p);
        if (it == cur->end())
            return null;
        cur = &*it;
    }
    return *cur;
}

std::string str(const Json &v, const std::string &fallback = {})
{
    return v.is_string() ? v.get<std::string>() : fallback;
}

std::int64_t num(const Json &v)
{
    return v.is_number_integer() ? v.get<std::int64_t>() : 0;
}

std::string age(const Json &timestamp, kube::Timestamp now)
{
    if (!timestamp.is_string())
        return "<unknown>";
    auto t = kube::parseRfc3339(timestamp.get<std::string>());
    if (!t)
        return "<unknown>";
    return kube::humanAge(now - *t);
}

std::string joinMap(const Json &map)
{
    if (!map.is_object() || map.empty())
        return "<none>";
    std::string out;
    for (const auto &[k, v] : map.items())
        out += (out.empty() ? "" : ",") + k + "=" + str(v);
    return out;
}

// kubectl's Job STATUS: the finished condition, Suspended, the terminal-to-be conditions
// (FailureTarget "Failing", SuccessCriteriaMet "Complete"), else Running.
std::string jobStatus(const Json &job)
{
    const Json &conditions = at(job, {"status", "conditions"});
    auto isTrue = [&](const char *type) {
        if (conditions.is_array())
            for (const auto &c : conditions)
                if (str(at(c, {"type"})) == type && str(at(c, {"status"})) == "True")
                    return true;
        return false;
    };
    if (isTrue("Failed"))
        return "Failed";
    if (isTrue("Complete"))
        return "Complete";
    if (isTrue("Suspended"))
        return "Suspended";
    if (isTrue("FailureTarget"))
        return "Failing";
    if (isTrue("SuccessCriteriaMet"))
        return "Complete";
    return "Running";
}

std::pair<std::string, std::string> containersAndImages(const Json &podSpec)
{
    std::string names, images;
    const Json &cs = at(podSpec, {"containers"});
    if (cs.is_array()) {
        for (const auto &c : cs) {
            names += (names.empty() ? "" : ",") + str(at(c, {"name"}));
            images += (images.empty() ? "" : ",") + str(at(c, {"image"}));
        }
    }
    return {names, images};
}

std::string selectorText(const Json &selector)
{
    if (!selector.is_object())
        return "<none>";
    auto sel = kube::LabelSelector::fromJson(selector);
    if (!sel)
        return "<invalid>";
    const std::string text = sel->toQueryString();
    return text.empty() ? "<none>" : text;
}

// printPod's STATUS column, reduced to the states the engine produces.
std::string podStatus(const Json &pod)
{
    std::string reason = str(at(pod, {"status", "reason"}), str(at(pod, {"status", "phase"}), "Pending"));
    const Json &statuses = at(pod, {"status", "containerStatuses"});
    if (statuses.is_array()) {
        for (const auto &cs : statuses) {
            const std::string waiting = str(at(cs, {"state", "waiting", "reason"}));
            const std::string terminated = str(at(cs, {"state", "terminated", "reason"}));
            if (!waiting.empty())
                reason = waiting;
            else if (!terminated.empty())
                reason = terminated;
        }
    }
    if (at(pod, {"metadata", "deletionTimestamp"}).is_string())
        reason = "Terminating";
    return reason;
}

Json podCells(const Json &pod, kube::Timestamp now)
{
    const Json &containers = at(pod, {"spec", "containers"});
    const std::size_t total = containers.is_array() ? containers.size() : 0;
    std::size_t ready = 0;
    std::int64_t restarts = 0;
    const Json &statuses = at(pod, {"status", "containerStatuses"});
    if (statuses.is_array()) {
        for (const auto &cs : statuses) {
            if (at(cs, {"ready"}) == true)
                ++ready;
            restarts += num(at(cs, {"restartCount"}));
        }
    }
    return Json::array(
        {str(at(pod, {"metadata", "name"})), std::to_string(ready) + "/" + std::to_string(total),
         podStatus(pod), std::to_string(restarts), age(at(pod, {"metadata", "creationTimestamp"}), now),
         str(at(pod, {"status", "podIP"}), "<none>"), str(at(pod, {"spec", "nodeName"}), "<none>"),
         str(at(pod, {"status", "nominatedNodeName"}), "<none>"), "<none>"});
}

Json nodeCells(const Json &node, kube::Timestamp now)
{
    std::string status = "Unknown";
    const Json &conds = at(node, {"status", "conditions"});
    if (conds.is_array())
        for (const auto &c : conds)
            if (str(at(c, {"type"})) == "Ready")
                status = str(at(c, {"status"})) == "True" ? "Ready" : "NotReady";
    if (at(node, {"spec", "unschedulable"}) == true)
        status += ",SchedulingDisabled";
    std::vector<std::string> roles;
    const Json &labels = at(node, {"metadata", "labels"});
    if (labels.is_object()) {
        static const std::string prefix = "node-role.kubernetes.io/";
        for (const auto &[k, v] : labels.items()) {
            if (k.rfind(prefix, 0) == 0 && k.size() > prefix.size())
                roles.push_back(k.substr(prefix.size()));
            else if (k == "kubernetes.io/role" && !str(v).empty())
                roles.push_back(str(v));
        }
    }
    std::sort(roles.begin(), roles.end());
    roles.erase(std::unique(roles.begin(), roles.end()), roles.end());
    std::string roleText;
    for (const auto &r : roles)
        roleText += (roleText.empty() ? "" : ",") + r;
    auto address = [&](const char *type) {
        if (const Json &as = at(node, {"status", "addresses"}); as.is_array())
            for (const auto &a : as)
                if (str(at(a, {"type"})) == type)
                    return str(at(a, {"address"}), "<none>");
        return std::string("<none>");
    };
    auto info = [&](const char *field) { return str(at(node, {"status", "nodeInfo", field}), "<unknown>"); };
    return Json::array({str(at(node, {"metadata", "name"})), status, roleText.empty() ? "<none>" : roleText,
                        age(at(node, {"metadata", "creationTimestamp"}), now),
                        str(at(node, {"status", "nodeInfo", "kubeletVersion"})), address("InternalIP"),
                        address("ExternalIP"), info("osImage"), info("kernelVersion"),
                        info("containerRuntimeVersion")});
}

Json revisionCells(const Json &cr, kube::Timestamp now)
{
    std::string controller = "<none>";
    const Json &owners = at(cr, {"metadata", "ownerReferences"});
    if (owners.is_array()) {
        for (const auto &o : owners) {
            if (at(o, {"controller"}) != true)
                continue;
            std::string kind = str(at(o, {"kind"}));
            std::transform(kind.begin(), kind.end(), kind.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            const std::string apiVersion = str(at(o, {"apiVersion"}));
            const auto slash = apiVersion.find('/');
            const std::string group =
                slash == std::string::npos ? std::string() : apiVersion.substr(0, slash);
            controller = kind + (group.empty() ? "" : "." + group) + "/" + str(at(o, {"name"}));
        }
    }
    return Json::array({str(at(cr, {"metadata", "name"})), controller, num(at(cr, {"revision"})),
                        age(at(cr, {"metadata", "creationTimestamp"}), now)});
}

// printService: EXTERNAL-IP is the external name, the load balancer's ingress (or <pending>) and
// the external IPs; PORT(S) "port[:nodePort]/protocol".
Json serviceCells(const Json &svc, kube::Timestamp now)
{
    const std::string type = str(at(svc, {"spec", "type"}), "ClusterIP");
    std::vector<std::string> external;
    if (type == "ExternalName")
        external.push_back(str(at(svc, {"spec", "externalName"})));
    if (type == "LoadBalancer") {
        const Json &ingress = at(svc, {"status", "loadBalancer", "ingress"});
        if (ingress.is_array())
            for (const auto &i : ingress)
                external.push_back(str(at(i, {"ip"}), str(at(i, {"hostname"}))));
    }
    if (const Json &ips = at(svc, {"spec", "externalIPs"}); ips.is_array())
        for (const auto &ip : ips)
            external.push_back(str(ip));
    std::string externalText;
    for (const auto &e : external)
        externalText += (externalText.empty() ? "" : ",") + e;
    if (externalText.empty())
        externalText = type == "LoadBalancer" ? "<pending>" : "<none>";
    std::string ports;
    if (const Json &ps = at(svc, {"spec", "ports"}); ps.is_array())
        for (const auto &p : ps) {
            std::string one = std::to_string(num(at(p, {"port"})));
            if (at(p, {"nodePort"}).is_number_integer())
                one += ":" + std::to_string(num(at(p, {"nodePort"})));
            ports += (ports.empty() ? "" : ",") + one + "/" + str(at(p, {"protocol"}), "TCP");
        }
    return Json::array(
        {str(at(svc, {"metadata", "name"})), type, str(at(svc, {"spec", "clusterIP"}), "<none>"),
         externalText, ports.empty() ? "<none>" : ports, age(at(svc, {"metadata", "creationTimestamp"}), now),
         joinMap(at(svc, {"spec", "selector"}))});
}

Json eventCells(const Json &ev, kube::Timestamp now)
{
    std::string kind = str(at(ev, {"involvedObject", "kind"}));
    std::transform(kind.begin(), kind.end(), kind.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const Json &last = at(ev, {"lastTimestamp"}).is_string() ? at(ev, {"lastTimestamp"})
                                                             : at(ev, {"metadata", "creationTimestamp"});
    const Json &first = at(ev, {"firstTimestamp"}).is_string() ? at(ev, {"firstTimestamp"})
                                                               : at(ev, {"metadata", "creationTimestamp"});
    std::string source = str(at(ev, {"source", "component"}));
    if (const std::string host = str(at(ev, {"source", "host"})); !host.empty())
        source += ", " + host;
    return Json::array({age(last, now), str(at(ev, {"type"})), str(at(ev, {"reason"})),
                        kind + "/" + str(at(ev, {"involvedObject", "name"})),
                        str(at(ev, {"involvedObject", "fieldPath"})), source, str(at(ev, {"message"})),
                        age(first, now), std::to_string(std::max<std::int64_t>(1, num(at(ev, {"count"})))),
                        str(at(ev, {"metadata", "name"}))});
}

} // namespace

TablePrinter::IncludeObject TablePrinter::includeObjectFrom(const std::string &query)
{
    if (query == "None")
        return IncludeObject::None;
    if (query == "Object")
        return IncludeObject::Object;
    return IncludeObject::Metadata;
}

Json TablePrinter::columnDefinitions(Kind kind)
{
    Json out = Json::array();
    for (const auto &c : columnsOf(kind))
        out.push_back({{"name", c.name},
                       {"type", c.type},
                       {"format", c.format},
                       {"description", c.description},
                       {"priority", c.priority}});
    return out;
}

static Json jobCells(const Json &o, kube::Timestamp now)
{
    const auto [names, images] = containersAndImages(at(o, {"spec", "template", "spec"}));
    const Json &completions = at(o, {"spec", "completions"});
    const std::string wanted = completions.is_number_integer() ? std::to_string(num(completions)) : "1";
    std::string duration;
    if (const Json &start = at(o, {"status", "startTime"}); start.is_string())
        if (auto from = kube::parseRfc3339(start.get<std::string>())) {
            kube::Timestamp until = now;
            if (const Json &done = at(o, {"status", "completionTime"}); done.is_string())
                if (auto parsed = kube::parseRfc3339(done.get<std::string>()))
                    until = *parsed;
            duration = kube::humanAge(until - *from);
        }
    return Json::array({str(at(o, {"metadata", "name"})), jobStatus(o),
                        std::to_string(num(at(o, {"status", "succeeded"}))) + "/" + wanted, duration,
                        age(at(o, {"metadata", "creationTimestamp"}), now), names, images,
                        selectorText(at(o, {"spec", "selector"}))});
}

Json TablePrinter::cells(Kind kind, const Json &o, kube::Timestamp now)
{
    switch (kind) {
    case Kind::DaemonSet: {
        const auto [names, images] = containersAndImages(at(o, {"spec", "template", "spec"}));
        return Json::array(
            {str(at(o, {"metadata", "name"})), num(at(o, {"status", "desiredNumberScheduled"})),
             num(at(o, {"status", "currentNumberScheduled"})), num(at(o, {"status", "numberReady"})),
             num(at(o, {"status", "updatedNumberScheduled"})), num(at(o, {"status", "numberAvailable"})),
             joinMap(at(o, {"spec", "template", "spec", "nodeSelector"})),
             age(at(o, {"metadata", "creationTimestamp"}), now), names, images,
             selectorText(at(o, {"spec", "selector"}))});
    }
    case Kind::ReplicaSet: {
        const auto [names, images] = containersAndImages(at(o, {"spec", "template", "spec"}));
        const Json &replicas = at(o, {"spec", "replicas"});
        return Json::array({str(at(o, {"metadata", "name"})),
                            replicas.is_number_integer() ? num(replicas) : 1,
                            num(at(o, {"status", "replicas"})), num(at(o, {"status", "readyReplicas"})),
                            age(at(o, {"metadata", "creationTimestamp"}), now), names, images,
                            selectorText(at(o, {"spec", "selector"}))});
    }
    case Kind::Job:
        return jobCells(o, now);
    case Kind::Pod:
        return podCells(o, now);
    case Kind::Node:
        return nodeCells(o, now);
    case Kind::ControllerRevision:
        return revisionCells(o, now);
    case Kind::Event:
        return eventCells(o, now);
    case Kind::NodeUpgradeRollout: {
        Json cells = Json::array({str(at(o, {"metadata", "name"}))});
        for (const auto &c : nodeUpgradeRolloutColumns()) {
            const Json &v = columnValue(o, c.jsonPath);
            if (c.type == "date")
                cells.push_back(age(v, now));
            else if (c.type == "integer")
                cells.push_back(num(v));
            else
                cells.push_back(str(v));
        }
        return cells;
    }
    case Kind::PodDisruptionBudget: {
        auto value = [](const Json &v) {
            if (v.is_number_integer())
                return std::to_string(v.get<std::int64_t>());
            return v.is_string() ? v.get<std::string>() : std::string("N/A");
        };
        return Json::array({str(at(o, {"metadata", "name"})), value(at(o, {"spec", "minAvailable"})),
                            value(at(o, {"spec", "maxUnavailable"})),
                            num(at(o, {"status", "disruptionsAllowed"})),
                            age(at(o, {"metadata", "creationTimestamp"}), now)});
    }
    case Kind::Lease:
        return Json::array({str(at(o, {"metadata", "name"})), str(at(o, {"spec", "holderIdentity"})),
                            age(at(o, {"metadata", "creationTimestamp"}), now)});
    case Kind::Service:
        return serviceCells(o, now);
    case Kind::Namespace:
        return Json::array({str(at(o, {"metadata", "name"})), str(at(o, {"status", "phase"}), "Active"),
                            age(at(o, {"metadata", "creationTimestamp"}), now)});
    }
    return Json::array();
}

Json TablePrinter::row(Kind kind, const Json &object, kube::Timestamp now, IncludeObject include)
{
    Json r = {{"cells", cells(kind, object, now)}};
    if (include == IncludeObject::Metadata)
        r["object"] = {
            {"kind", "PartialObjectMetadata"},
            {"apiVersion", "meta.k8s.io/v1"},
            {"metadata", at(object, {"metadata"}).is_object() ? at(object, {"metadata"}) : Json::object()}};
    else if (include == IncludeObject::Object)
        r["object"] = object;
    return r;
}

Json TablePrinter::table(Kind kind, const std::vector<Json> &objects, kube::Timestamp now,
                         IncludeObject include, const std::string &resourceVersion,
                         const std::string &continueToken, bool withColumns)
{
    Json meta = {{"resourceVersion", resourceVersion}};
    if (!continueToken.empty())
        meta["continue"] = continueToken;
    Json rows = Json::array();
    for (const auto &o : objects)
        rows.push_back(row(kind, o, now, include));
    return {{"kind", "Table"},
            {"apiVersion", "meta.k8s.io/v1"},
            {"metadata", std::move(meta)},
            {"columnDefinitions", withColumns ? columnDefinitions(kind) : Json::array()},
            {"rows", std::move(rows)}};
}

} // namespace server
