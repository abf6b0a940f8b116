#include "models/snapshot/objectdescribe.h"

#include "models/kube/jsonfield.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/taint.h"
#include "models/kube/timeutil.h"

namespace models {

namespace {

using kube::Json;

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

QString str(const Json &j, const char *key)
{
    return q(kube::stringOr(j, key));
}

const Json &child(const Json &j, const char *key)
{
    static const Json none;
    const Json *m = j.is_object() ? kube::member(j, key) : nullptr;
    return m ? *m : none;
}

QString orNone(const QString &s)
{
    return s.isEmpty() ? ObjectDescribe::tr("<none>") : s;
}

QString age(qint64 now, qint64 t)
{
    return t > 0 ? q(kube::humanAge(std::max<qint64>(0, now - t))) : ObjectDescribe::tr("<unknown>");
}

// "2026-01-01T00:00:00Z (5m ago)", or empty for a missing or unreadable time.
QString timeField(const Json &j, const char *key, qint64 now)
{
    const std::string text = kube::stringOr(j, key);
    if (text.empty())
        return {};
    auto t = kube::parseRfc3339(text);
    if (!t)
        return q(text);
    return ObjectDescribe::tr("%1 (%2 ago)").arg(q(text), age(now, *t));
}

qint64 timeOf(const Json &j, const char *key)
{
    auto t = kube::parseRfc3339(kube::stringOr(j, key));
    return t ? *t : 0;
}

QString labelsText(const kube::StringMap &labels, int limit = -1)
{
    QStringList out;
    for (const auto &[k, v] : labels)
        out << (v.empty() ? q(k) : q(k) + QLatin1Char('=') + q(v));
    if (limit >= 0 && out.size() > limit) {
        const auto more = out.size() - limit;
        out = out.mid(0, limit);
        out << ObjectDescribe::tr("… (+%n more)", nullptr, static_cast<int>(more));
    }
    return orNone(out.join(QLatin1Char('\n')));
}

QString taintText(const kube::Taint &t)
{
    return q(t.key) + (t.value.empty() ? QString() : QLatin1Char('=') + q(t.value)) + QLatin1Char(':') +
           q(t.effect);
}

QString tolerationText(const kube::Toleration &t)
{
    QString s = t.key.empty() ? QString() : q(t.key);
    if (t.op == "Exists")
        s += ObjectDescribe::tr(" op=Exists");
    else if (!t.value.empty())
        s += QLatin1Char('=') + q(t.value);
    if (!t.effect.empty())
        s += QLatin1Char(':') + q(t.effect);
    if (t.tolerationSeconds)
        s += ObjectDescribe::tr(" for %1s").arg(*t.tolerationSeconds);
    return s.trimmed();
}

// A container state (state or lastState) as kubectl describe prints it.
void stateFields(QList<DescribeField> &out, const Json &state, bool last, qint64 now)
{
    const QString prefix = last ? ObjectDescribe::tr("Last State") : ObjectDescribe::tr("State");
    if (!state.is_object() || state.empty()) {
        if (!last)
            out.push_back({prefix, ObjectDescribe::tr("Waiting")});
        return;
    }
    if (const Json &r = child(state, "running"); r.is_object()) {
        out.push_back({prefix, ObjectDescribe::tr("Running")});
        if (auto t = timeField(r, "startedAt", now); !t.isEmpty())
            out.push_back({ObjectDescribe::tr("  Started"), t});
    } else if (const Json &w = child(state, "waiting"); w.is_object()) {
        out.push_back({prefix, ObjectDescribe::tr("Waiting")});
        if (auto reason = str(w, "reason"); !reason.isEmpty())
            out.push_back({ObjectDescribe::tr("  Reason"), reason});
        if (auto message = str(w, "message"); !message.isEmpty())
            out.push_back({ObjectDescribe::tr("  Message"), message});
    } else if (const Json &t = child(state, "terminated"); t.is_object()) {
        out.push_back({prefix, ObjectDescribe::tr("Terminated")});
        if (auto reason = str(t, "reason"); !reason.isEmpty())
            out.push_back({ObjectDescribe::tr("  Reason"), reason});
        if (auto message = str(t, "message"); !message.isEmpty())
            out.push_back({ObjectDescribe::tr("  Message"), message});
        out.push_back(
            {ObjectDescribe::tr("  Exit Code"), QString::number(kube::integerOr(t, "exitCode", 0))});
        if (auto s = timeField(t, "startedAt", now); !s.isEmpty())
            out.push_back({ObjectDescribe::tr("  Started"), s});
        if (auto f = timeField(t, "finishedAt", now); !f.isEmpty())
            out.push_back({ObjectDescribe::tr("  Finished"), f});
    }
}

DescribeSection containerSection(const Json &spec, const Json *status, qint64 now)
{
    DescribeSection s;
    const QString name = str(spec, "name");
    s.title = ObjectDescribe::tr("Container %1").arg(name);
    s.fields.push_back({ObjectDescribe::tr("Image"), str(spec, "image")});
    if (!status) {
        s.fields.push_back({ObjectDescribe::tr("State"), ObjectDescribe::tr("Waiting")});
        return s;
    }
    stateFields(s.fields, child(*status, "state"), false, now);
    if (const Json &last = child(*status, "lastState"); last.is_object() && !last.empty())
        stateFields(s.fields, last, true, now);
    const Json &ready = child(*status, "ready");
    s.fields.push_back({ObjectDescribe::tr("Ready"), ready.is_boolean() && ready.get<bool>()
                                                         ? ObjectDescribe::tr("True")
                                                         : ObjectDescribe::tr("False")});
    s.fields.push_back(
        {ObjectDescribe::tr("Restart Count"), QString::number(kube::integerOr(*status, "restartCount", 0))});
    return s;
}

} // namespace

DescribeSection ObjectDescribe::eventsSection(const std::vector<EventInfo> &events, qint64 now)
{
    DescribeSection s;
    s.title = tr("Events");
    s.columns = {tr("Type"), tr("Reason"), tr("Age"), tr("From"), tr("Message")};
    for (const EventInfo &e : events) {
        QString when = age(now, e.time);
        if (e.count > 1)
            when = tr("%1 (x%2 over %3)").arg(when).arg(e.count).arg(age(now, e.firstTime));
        s.rows.push_back({e.type, e.reason, when, e.source, e.message});
    }
    if (events.empty())
        s.fields.push_back({tr("Events"), tr("<none>")});
    return s;
}

QStringList ObjectDescribe::containerNames(const Json &pod)
{
    QStringList names;
    const Json &containers = child(child(pod, "spec"), "containers");
    if (containers.is_array())
        for (const auto &c : containers)
            names << str(c, "name");
    return names;
}

QList<DescribeSection> ObjectDescribe::pod(const Json &json, const std::vector<EventInfo> &events, qint64 now)
{
    QList<DescribeSection> out;
    auto parsed = kube::Pod::fromJson(json);
    if (!parsed) {
        out.push_back({tr("Pod"), {{tr("Error"), q(parsed.error().message)}}, {}, {}});
        return out;
    }
    const kube::Pod &p = *parsed;
    const Json &status = child(json, "status");

    DescribeSection overview;
    overview.title = tr("Pod");
    auto &f = overview.fields;
    f.push_back({tr("Name"), q(p.metadata.name)});
    f.push_back({tr("Namespace"), q(p.metadata.namespace_)});
    QString node = q(p.nodeName);
    if (const QString host = str(status, "hostIP"); !host.isEmpty())
        node += QLatin1Char('/') + host;
    f.push_back({tr("Node"), orNone(node)});
    if (p.startTime)
        f.push_back({tr("Start Time"),
                     tr("%1 (%2 ago)").arg(q(kube::formatRfc3339(*p.startTime)), age(now, *p.startTime))});
    f.push_back({tr("Labels"), labelsText(p.metadata.labels)});
    QString phase = q(p.phase);
    if (p.metadata.deletionTimestamp)
        phase = tr("Terminating");
    f.push_back({tr("Status"), phase});
    if (const QString reason = str(status, "reason"); !reason.isEmpty())
        f.push_back({tr("Reason"), reason});
    if (const QString message = str(status, "message"); !message.isEmpty())
        f.push_back({tr("Message"), message});
    f.push_back({tr("IP"), orNone(str(status, "podIP"))});
    const kube::OwnerReference *owner = p.metadata.controllerRef();
    f.push_back(
        {tr("Controlled By"), owner ? q(owner->kind) + QLatin1Char('/') + q(owner->name) : tr("<none>")});
    out.push_back(std::move(overview));

    // Containers: the spec's order, each with its status by name.
    const Json &statuses = child(status, "containerStatuses");
    const Json &containers = child(child(json, "spec"), "containers");
    if (containers.is_array())
        for (const auto &c : containers) {
            const Json *st = nullptr;
            if (statuses.is_array())
                for (const auto &s : statuses)
                    if (kube::stringOr(s, "name") == kube::stringOr(c, "name"))
                        st = &s;
            out.push_back(containerSection(c, st, now));
        }

    DescribeSection conditions;
    conditions.title = tr("Conditions");
    conditions.columns = {tr("Type"), tr("Status"), tr("Last Transition"), tr("Reason")};
    if (const Json &conds = child(status, "conditions"); conds.is_array())
        for (const auto &c : conds)
            conditions.rows.push_back(
                {str(c, "type"), str(c, "status"),
                 c.contains("lastTransitionTime") ? age(now, timeOf(c, "lastTransitionTime")) : QString(),
                 str(c, "reason")});
    out.push_back(std::move(conditions));

    DescribeSection tolerations;
    tolerations.title = tr("Tolerations");
    QStringList tols;
    if (const Json &list = child(child(json, "spec"), "tolerations"); list.is_array())
        if (auto parsedTols = kube::tolerationsFromJson(list))
            for (const auto &t : *parsedTols)
                tols << tolerationText(t);
    tolerations.fields.push_back({tr("Tolerations"), orNone(tols.join(QLatin1Char('\n')))});
    out.push_back(std::move(tolerations));

    out.push_back(eventsSection(events, now));
    return out;
}

QList<DescribeSection> ObjectDescribe::node(const Json &json, const std::vector<EventInfo> &events,
                                            const QList<NodePodRow> &pods, qint64 now)
{
    QList<DescribeSection> out;
    auto parsed = kube::Node::fromJson(json);
    if (!parsed) {
        out.push_back({tr("Node"), {{tr("Error"), q(parsed.error().message)}}, {}, {}});
        return out;
    }
    const kube::Node &n = *parsed;

    DescribeSection overview;
    overview.title = tr("Node");
    auto &f = overview.fields;
    f.push_back({tr("Name"), q(n.metadata.name)});
    f.push_back({tr("Labels"), labelsText(n.metadata.labels, 3)}); // every label: the Labels section
    if (n.metadata.creationTimestamp)
        f.push_back({tr("Created"), tr("%1 (%2 ago)")
                                        .arg(q(kube::formatRfc3339(*n.metadata.creationTimestamp)),
                                             age(now, *n.metadata.creationTimestamp))});
    QStringList taints;
    for (const auto &t : n.taints)
        taints << taintText(t);
    f.push_back({tr("Taints"), orNone(taints.join(QLatin1Char('\n')))});
    f.push_back({tr("Unschedulable"), n.unschedulable ? tr("true") : tr("false")});
    QStringList addresses;
    for (const auto &a : n.addresses)
        addresses << q(a.type) + QLatin1String(": ") + q(a.address);
    if (!addresses.isEmpty())
        f.push_back({tr("Addresses"), addresses.join(QLatin1Char('\n'))});
    out.push_back(std::move(overview));

    DescribeSection conditions;
    conditions.title = tr("Conditions");
    conditions.columns = {tr("Type"), tr("Status"), tr("Last Transition"), tr("Reason"), tr("Message")};
    for (const auto &c : n.conditions)
        conditions.rows.push_back({q(c.type), q(c.status),
                                   c.lastTransitionTime ? age(now, *c.lastTransitionTime) : QString(),
                                   q(c.reason), q(c.message)});
    out.push_back(std::move(conditions));

    DescribeSection resources;
    resources.title = tr("Capacity");
    resources.columns = {tr("Resource"), tr("Capacity"), tr("Allocatable")};
    std::map<std::string, std::pair<std::string, std::string>> table;
    for (const auto &[k, v] : n.capacity)
        table[k].first = v;
    for (const auto &[k, v] : n.allocatable)
        table[k].second = v;
    table["pods"] = {std::to_string(n.allocatablePods), std::to_string(n.allocatablePods)};
    for (const auto &[k, v] : table)
        resources.rows.push_back({q(k), q(v.first), q(v.second)});
    out.push_back(std::move(resources));

    DescribeSection info;
    info.title = tr("System Info");
    info.fields = {{tr("Kubelet Version"), orNone(q(n.kubeletVersion))},
                   {tr("OS Image"), orNone(q(n.info.osImage))},
                   {tr("Kernel Version"), orNone(q(n.info.kernelVersion))},
                   {tr("Container Runtime"), orNone(q(n.info.containerRuntimeVersion))},
                   {tr("Operating System"), orNone(q(n.info.operatingSystem))},
                   {tr("Architecture"), orNone(q(n.info.architecture))},
                   {tr("Boot ID"), orNone(q(n.info.bootID))},
                   {tr("Machine ID"), orNone(q(n.info.machineID))}};
    out.push_back(std::move(info));

    DescribeSection podTable;
    podTable.title = tr("Pods");
    podTable.columns = {tr("Namespace"), tr("Name"), tr("Ready"), tr("Revision"), tr("Controlled By")};
    for (const auto &p : pods)
        podTable.rows.push_back({p.namespace_, p.name, p.ready ? tr("True") : tr("False"), p.hash, p.owner});
    if (pods.isEmpty())
        podTable.fields.push_back({tr("Pods"), tr("<none>")});
    out.push_back(std::move(podTable));

    out.push_back(eventsSection(events, now));

    DescribeSection labels;
    labels.title = tr("Labels");
    labels.columns = {tr("Key"), tr("Value")};
    for (const auto &[k, v] : n.metadata.labels)
        labels.rows.push_back({q(k), q(v)});
    out.push_back(std::move(labels));
    return out;
}

QString ObjectDescribe::toText(const QList<DescribeSection> &sections)
{
    QString out;
    for (const auto &s : sections) {
        out += s.title + QLatin1String(":\n");
        int width = 0;
        for (const auto &f : s.fields)
            width = std::max(width, static_cast<int>(f.label.size()));
        for (const auto &f : s.fields) {
            const QStringList lines = f.value.split(QLatin1Char('\n'));
            out += QLatin1String("  ") + (f.label + QLatin1Char(':')).leftJustified(width + 3);
            out += lines.join(QLatin1Char('\n') + QString(width + 5, QLatin1Char(' '))) + QLatin1Char('\n');
        }
        if (!s.columns.isEmpty() && !s.rows.isEmpty()) {
            QList<int> widths;
            for (const auto &c : s.columns)
                widths << static_cast<int>(c.size());
            for (const auto &r : s.rows)
                for (int i = 0; i < r.size() && i < widths.size(); ++i)
                    widths[i] = std::max(widths[i], static_cast<int>(r[i].size()));
            auto row = [&](const QStringList &cells) {
                QString line = QLatin1String("  ");
                for (int i = 0; i < cells.size(); ++i)
                    line += i + 1 < cells.size() ? cells[i].leftJustified(widths[i] + 2) : cells[i];
                return line + QLatin1Char('\n');
            };
            out += row(s.columns);
            for (const auto &r : s.rows)
                out += row(r);
        }
        out += QLatin1Char('\n');
    }
    return out;
}

} // namespace models
