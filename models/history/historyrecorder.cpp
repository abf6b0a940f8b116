#include "models/history/historyrecorder.h"

#include <QDateTime>
#include <QFileInfo>

#include <algorithm>

namespace models {

namespace {

bool sameAction(const ActionRecord &a, const ActionRecord &b)
{
    return a.time == b.time && a.wallTime == b.wallTime && a.user == b.user && a.kind == b.kind &&
           a.target == b.target && a.parameters == b.parameters;
}

// Actions whose record the embedded backend puts into the DaemonSet's DaemonSetRecord.
bool carriedBySnapshot(ActionKind kind)
{
    return kind == ActionKind::Rollback || kind == ActionKind::Pause || kind == ActionKind::Resume ||
           kind == ActionKind::SetImage || kind == ActionKind::RestartRollout ||
           kind == ActionKind::SetStrategy;
}

} // namespace

HistoryRecorder::HistoryRecorder(std::unique_ptr<HistoryDatabase> database, RevisionMemory *memory,
                                 QObject *parent)
    : QObject(parent), m_db(std::move(database)), m_memory(memory), m_user(operatingSystemUser())
{}

HistoryRecorder::~HistoryRecorder() = default;

QString HistoryRecorder::contextKeyOf(const ClusterSnapshot &snapshot)
{
    const BackendInfo &b = snapshot.backend;
    if (b.kind == BackendKind::Embedded)
        return b.scenarioPath.isEmpty()
                   ? QString()
                   : HistoryDatabase::embeddedContextKey(QFileInfo(b.scenarioPath).fileName());
    // Language-independent: the kubeconfig context and the server, as the history keys them.
    if (b.server.isEmpty())
        return {};
    return HistoryDatabase::liveContextKey(b.context, b.server);
}

QString HistoryRecorder::startupMessage() const
{
    if (!m_db)
        return {};
    if (!m_db->recoveryMessage().isEmpty())
        return m_db->recoveryMessage();
    return m_db->openError();
}

void HistoryRecorder::recordSnapshot(const std::shared_ptr<const ClusterSnapshot> &snapshot)
{
    if (!snapshot)
        return;
    m_latest = snapshot;
    // A scenario still loading is recorded once it has loaded (its revisions are all kept).
    if (!m_db || !m_db->isOpen() || snapshot->backend.loading)
        return;
    QString key = contextKeyOf(*snapshot);
    if (snapshot->backend.kind == BackendKind::Live && !m_liveContext.isEmpty())
        key = m_liveContext;
    if (key.isEmpty())
        return;
    if (key != m_context) {
        // Another cluster: what the memory holds belongs to the previous one.
        m_context = key;
        if (m_memory) {
            m_memory->clear();
            if (!m_db->restore(key, *m_memory))
                reportFailure();
            m_memory->observe(*snapshot);
        }
        emit memoryRestored(key);
    }
    if (!m_db->recordSnapshot(key, *snapshot))
        reportFailure();
}

void HistoryRecorder::recordAction(const ActionResult &result)
{
    if (!m_db || !m_db->isOpen() || m_context.isEmpty())
        return;
    if (result.kind == ActionKind::SetSpeed || result.kind == ActionKind::Step)
        return;
    if (carriedBySnapshot(result.kind) && m_latest) {
        // The backend publishes the snapshot with the action's record before the result.
        if (const DaemonSetInfo *ds = m_latest->daemonSet(result.target); ds && ds->record) {
            const auto &list = ds->record->actions;
            if (std::any_of(list.begin(), list.end(), [&](const ActionRecord &a) {
                    return a.kind == result.kind && a.outcome == result.message && a.ok == result.ok;
                }))
                return;
        }
    }
    ActionRecord record;
    record.time = m_latest ? m_latest->clock.now : 0;
    record.wallTime = QDateTime::currentMSecsSinceEpoch();
    record.user = m_user;
    record.kind = result.kind;
    record.target = result.target;
    if (result.kind == ActionKind::Rollback && result.revision > 0)
        record.parameters = QStringLiteral("revision=%1").arg(result.revision);
    record.ok = result.ok;
    record.outcome = result.message;
    if (!m_db->recordAction(m_context, record))
        reportFailure();
}

std::vector<ActionRecord> HistoryRecorder::actions(const ClusterSnapshot &snapshot,
                                                   const QString &dsKey) const
{
    std::vector<ActionRecord> out;
    if (m_db && m_db->isOpen() && !m_context.isEmpty())
        out = m_db->actions(m_context, dsKey);
    if (const DaemonSetInfo *ds = snapshot.daemonSet(dsKey); ds && ds->record) {
        for (const ActionRecord &a : ds->record->actions) {
            if (std::none_of(out.begin(), out.end(), [&](const ActionRecord &b) { return sameAction(a, b); }))
                out.push_back(a);
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ActionRecord &a, const ActionRecord &b) { return a.wallTime < b.wallTime; });
    return out;
}

void HistoryRecorder::reportFailure()
{
    if (m_reported)
        return;
    m_reported = true;
    emit problem(tr("History could not be saved: %1").arg(m_db->lastError()));
}

} // namespace models
