#include "models/backend/livedrilldown.h"

#include "models/snapshot/detailevents.h"

#include "models/client/kubeclient.h"

#include <string_view>

namespace models {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

// "HTTP 400: message", or the transport's message when there was no answer.
QString errorText(const kube::ApiStatus &status)
{
    if (status.code == 0)
        return q(status.message);
    return LiveDrillDown::tr("HTTP %1: %2").arg(status.code).arg(q(status.message));
}

} // namespace

LiveDrillDown::LiveDrillDown(QObject *parent) : QObject(parent) {}

LiveDrillDown::~LiveDrillDown()
{
    stopAll();
}

void LiveDrillDown::setClient(std::shared_ptr<client::KubeClient> client)
{
    std::lock_guard lock(m_mutex);
    m_client = std::move(client);
}

void LiveDrillDown::reap()
{
    for (auto it = m_jobs.begin(); it != m_jobs.end();) {
        if (it->second.done->load()) {
            it->second.thread.join();
            it = m_jobs.erase(it);
        } else {
            ++it;
        }
    }
}

void LiveDrillDown::launch(quint64 id, std::function<void(const std::atomic<bool> &cancel)> work)
{
    std::lock_guard lock(m_mutex);
    reap();
    Job job;
    job.cancel = std::make_shared<std::atomic<bool>>(false);
    job.done = std::make_shared<std::atomic<bool>>(false);
    job.thread = std::thread([work = std::move(work), cancel = job.cancel, done = job.done] {
        work(*cancel);
        done->store(true);
    });
    m_jobs.emplace(id, std::move(job));
}

void LiveDrillDown::requestDetail(quint64 id, const QString &kind, const QString &ns, const QString &name)
{
    std::shared_ptr<client::KubeClient> c;
    {
        std::lock_guard lock(m_mutex);
        c = m_client;
    }
    ObjectDetail d;
    d.requestId = id;
    d.kind = kind;
    d.namespace_ = ns;
    d.name = name;
    const bool pod = kind == QLatin1String("Pod");
    if (!c || (!pod && kind != QLatin1String("Node"))) {
        d.error = !c ? tr("not connected") : tr("unsupported kind %1").arg(kind);
        QMetaObject::invokeMethod(
            this, [this, d] { Q_EMIT detailReady(d); }, Qt::QueuedConnection);
        return;
    }
    launch(id, [this, c, d, pod](const std::atomic<bool> &cancel) mutable {
        const std::string ns = pod ? d.namespace_.toStdString() : std::string();
        const std::string name = d.name.toStdString();
        auto object = pod ? c->getJson(client::resourceFor<kube::Pod>(), ns, name)
                          : c->getJson(client::resourceFor<kube::Node>(), {}, name);
        if (!object) {
            d.error = errorText(object.error());
            Q_EMIT detailReady(d);
            return;
        }
        d.ok = true;
        d.object = std::make_shared<const kube::Json>(std::move(*object));
        client::ListOptions lo;
        lo.fieldSelector = "involvedObject.name=" + name + ",involvedObject.namespace=" + ns +
                           ",involvedObject.kind=" + d.kind.toStdString();
        auto events = c->list<kube::Event>(ns, lo, &cancel);
        if (events) {
            std::vector<const kube::Event *> all;
            for (const auto &e : events->items)
                all.push_back(&e);
            d.events = eventsAbout(all, d.kind, d.namespace_, d.name);
        } else {
            d.error = tr("events: %1").arg(errorText(events.error())); // the object is still shown
        }
        Q_EMIT detailReady(d);
    });
}

void LiveDrillDown::startLogs(quint64 id, const LogRequest &r)
{
    std::shared_ptr<client::KubeClient> c;
    {
        std::lock_guard lock(m_mutex);
        c = m_client;
    }
    if (!c) {
        QMetaObject::invokeMethod(
            this, [this, id] { Q_EMIT logFinished(id, false, tr("not connected")); }, Qt::QueuedConnection);
        return;
    }
    launch(id, [this, c, id, r](const std::atomic<bool> &cancel) {
        client::KubeClient::LogOptions o;
        o.container = r.container.toStdString();
        o.previous = r.previous;
        o.follow = r.follow;
        o.tailLines = r.tailLines;
        std::string batch;
        auto result = c->streamLogs(
            r.namespace_.toStdString(), r.pod.toStdString(), o,
            [&](std::string_view line) {
                batch.append(line);
                batch += '\n';
                // One signal per line read while following (lines come one by one), at most one
                // per 64 KiB of a finished log.
                if (r.follow || batch.size() >= 64 * 1024) {
                    Q_EMIT logData(id, QString::fromUtf8(batch.data(), static_cast<qsizetype>(batch.size())));
                    batch.clear();
                }
                return !cancel.load();
            },
            cancel);
        if (!batch.empty())
            Q_EMIT logData(id, QString::fromUtf8(batch.data(), static_cast<qsizetype>(batch.size())));
        if (cancel.load())
            Q_EMIT logFinished(id, true, tr("stopped"));
        else if (!result)
            Q_EMIT logFinished(id, false, errorText(result.error()));
        else
            Q_EMIT logFinished(id, true, QString());
    });
}

void LiveDrillDown::stopLogs(quint64 id)
{
    std::lock_guard lock(m_mutex);
    auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        return;
    it->second.cancel->store(true);
    if (m_client)
        m_client->transport().interrupt(*it->second.cancel);
}

void LiveDrillDown::stopAll()
{
    std::map<quint64, Job> jobs;
    {
        std::lock_guard lock(m_mutex);
        for (auto &[id, job] : m_jobs) {
            job.cancel->store(true);
            if (m_client)
                m_client->transport().interrupt(*job.cancel);
        }
        jobs.swap(m_jobs);
    }
    for (auto &[id, job] : jobs)
        job.thread.join();
}

} // namespace models
