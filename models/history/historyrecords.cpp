// The history database's records: the revisions of each DaemonSet (written as they change,
// read back with their number history and templates), the rollouts' timings and the actions taken,
// each kept per context (embedded scenario or live cluster).

#include "models/history/historydatabase.h"
#include "models/history/historysql.h"

#include "models/kube/jsonlimits.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <map>
#include <optional>

namespace models {

using namespace historysql;

namespace {

std::shared_ptr<const kube::Json> parseTemplate(const QString &text)
{
    // The database is a file on disk like any other input: a damaged or planted row must not
    // take the console down (the same nesting limit as every JSON read from outside).
    auto parsed = kube::JsonLimits::parse(text.toStdString());
    return std::make_shared<const kube::Json>(parsed ? std::move(parsed).value() : kube::Json::object());
}

std::optional<ActionKind> actionKindFromName(const QString &name)
{
    // Kinds unknown to this version (written by a newer one) have no ActionKind; callers skip them.
    for (int k = 0; k <= int(ActionKind::Last); ++k) {
        if (actionKindName(ActionKind(k)) == name)
            return ActionKind(k);
    }
    return std::nullopt;
}

} // namespace

bool HistoryDatabase::writeRevisions(qint64 dsId, const std::vector<RevisionRecord> &live, qint64 now)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    QString error;

    struct Known
    {
        qint64 id = 0;
        bool removed = false;
        qint64 lastSeq = 0;
        qint64 lastNumber = 0;
    };
    std::map<QString, Known> known;
    if (!run(q,
             QStringLiteral("SELECT r.id, r.name, r.removed_at IS NOT NULL, n.seq, n.number FROM revisions r "
                            "LEFT JOIN revision_numbers n ON n.revision_id = r.id AND n.seq = "
                            "(SELECT MAX(seq) FROM revision_numbers WHERE revision_id = r.id) "
                            "WHERE r.daemonset_id = ?"),
             {dsId}, error))
        return fail(error);
    while (q.next()) {
        Known k;
        k.id = q.value(0).toLongLong();
        k.removed = q.value(2).toBool();
        k.lastSeq = q.value(3).toLongLong();
        k.lastNumber = q.value(4).toLongLong();
        known[q.value(1).toString()] = k;
    }
    q.finish();

    std::map<QString, bool> seen;
    for (const RevisionRecord &r : live) {
        seen[r.name] = true;
        const QString templateJson =
            QString::fromStdString(r.podTemplate ? kube::goJson(*r.podTemplate) : std::string("{}"));
        auto it = known.find(r.name);
        if (it == known.end()) {
            if (!run(q,
                     QStringLiteral(
                         "INSERT INTO revisions (daemonset_id, name, hash, number, change_cause, "
                         "image_summary, template_json, created, first_seen, last_seen, removed_at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)"),
                     {dsId, r.name, r.hash, r.number, r.changeCause, r.imageSummary, templateJson, r.created,
                      now, now},
                     error))
                return fail(error);
            Known k;
            k.id = q.lastInsertId().toLongLong();
            if (!run(q,
                     QStringLiteral(
                         "INSERT INTO revision_numbers (revision_id, seq, number, first_seen, last_seen) "
                         "VALUES (?, 1, ?, ?, ?)"),
                     {k.id, r.number, now, now}, error))
                return fail(error);
            k.lastSeq = 1;
            k.lastNumber = r.number;
            known[r.name] = k;
            continue;
        }
        Known &k = it->second;
        if (!run(q,
                 QStringLiteral(
                     "UPDATE revisions SET hash = ?, number = ?, change_cause = ?, image_summary = ?, "
                     "template_json = ?, created = ?, last_seen = ?, removed_at = NULL WHERE id = ?"),
                 {r.hash, r.number, r.changeCause, r.imageSummary, templateJson, r.created, now, k.id},
                 error))
            return fail(error);
        k.removed = false;
        if (k.lastSeq > 0 && k.lastNumber == r.number) {
            if (!run(q,
                     QStringLiteral(
                         "UPDATE revision_numbers SET last_seen = ? WHERE revision_id = ? AND seq = ?"),
                     {now, k.id, k.lastSeq}, error))
                return fail(error);
        } else {
            // A rollback renumbered it (or it came back after removal under a new number).
            if (!run(q,
                     QStringLiteral(
                         "INSERT INTO revision_numbers (revision_id, seq, number, first_seen, last_seen) "
                         "VALUES (?, ?, ?, ?, ?)"),
                     {k.id, k.lastSeq + 1, r.number, now, now}, error))
                return fail(error);
            k.lastSeq += 1;
            k.lastNumber = r.number;
        }
    }
    for (const auto &[name, k] : known) {
        if (k.removed || seen.count(name))
            continue;
        if (!run(q, QStringLiteral("UPDATE revisions SET removed_at = ? WHERE id = ?"), {now, k.id}, error))
            return fail(error);
    }
    return true;
}

bool HistoryDatabase::recordRevisions(const QString &contextKey, const QString &dsKey, const QString &uid,
                                      const std::vector<RevisionRecord> &live, qint64 now)
{
    if (!checkOpen())
        return false;
    QString error;
    Transaction tx(QSqlDatabase::database(m_connection, false));
    if (!tx.begin(error))
        return fail(error);
    const qint64 ctx = contextId(contextKey, true);
    if (ctx <= 0)
        return false;
    const qint64 ds = daemonSetId(ctx, dsKey, uid, now, true);
    if (ds <= 0)
        return false;
    if (!writeRevisions(ds, live, now))
        return false;
    if (!tx.commit(error))
        return fail(error);
    return true;
}

bool HistoryDatabase::recordSnapshot(const QString &contextKey, const ClusterSnapshot &snapshot)
{
    if (!checkOpen())
        return false;
    std::vector<const DaemonSetInfo *> changed;
    for (const DaemonSetInfo &ds : snapshot.daemonSets) {
        auto it = m_recorded.find(contextKey + QLatin1Char('\n') + ds.key);
        if (it == m_recorded.end() || it->second.uid != ds.uid || it->second.revisions != ds.revisions ||
            it->second.record != ds.record)
            changed.push_back(&ds);
    }
    if (changed.empty())
        return true;

    QString error;
    Transaction tx(QSqlDatabase::database(m_connection, false));
    if (!tx.begin(error))
        return fail(error);
    const qint64 ctx = contextId(contextKey, true);
    if (ctx <= 0)
        return false;
    const qint64 now = snapshot.clock.now;
    for (const DaemonSetInfo *ds : changed) {
        const qint64 dsId = daemonSetId(ctx, ds->key, ds->uid, now, true);
        if (dsId <= 0)
            return false;
        if (ds->revisions) {
            std::vector<RevisionRecord> live;
            live.reserve(ds->revisions->size());
            for (const RevisionInfo &info : *ds->revisions)
                live.push_back(RevisionRecord::fromInfo(info));
            if (!writeRevisions(dsId, live, now))
                return false;
        }
        if (ds->record) {
            for (const RolloutTiming &timing : ds->record->rollouts) {
                if (!writeRollout(dsId, RolloutRecord::fromTiming(timing)))
                    return false;
            }
            for (const ActionRecord &action : ds->record->actions) {
                if (!writeAction(ctx, action))
                    return false;
            }
        }
    }
    if (!tx.commit(error))
        return fail(error);
    // Only after the commit: a failed write is retried with the next snapshot.
    for (const DaemonSetInfo *ds : changed)
        m_recorded[contextKey + QLatin1Char('\n') + ds->key] = Recorded{ds->uid, ds->revisions, ds->record};
    return true;
}

std::vector<StoredRevision> HistoryDatabase::revisions(const QString &contextKey, const QString &dsKey,
                                                       const QString &uid)
{
    std::vector<StoredRevision> out;
    if (!checkOpen())
        return out;
    const qint64 ctx = contextId(contextKey, false);
    if (ctx <= 0)
        return out;
    const qint64 ds = daemonSetId(ctx, dsKey, uid, 0, false);
    if (ds <= 0)
        return out;

    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    if (!run(q,
             QStringLiteral(
                 "SELECT id, name, hash, number, change_cause, image_summary, template_json, created, "
                 "first_seen, last_seen, removed_at FROM revisions WHERE daemonset_id = ? "
                 "ORDER BY number, name"),
             {ds}, error)) {
        fail(error);
        return out;
    }
    std::map<qint64, std::size_t> indexById;
    while (q.next()) {
        StoredRevision r;
        indexById[q.value(0).toLongLong()] = out.size();
        r.name = q.value(1).toString();
        r.hash = q.value(2).toString();
        r.number = q.value(3).toLongLong();
        r.changeCause = q.value(4).toString();
        r.imageSummary = q.value(5).toString();
        r.podTemplate = parseTemplate(q.value(6).toString());
        r.created = q.value(7).toLongLong();
        r.firstSeen = q.value(8).toLongLong();
        r.lastSeen = q.value(9).toLongLong();
        r.removed = !q.value(10).isNull();
        r.removedAt = r.removed ? q.value(10).toLongLong() : 0;
        out.push_back(std::move(r));
    }
    q.finish();
    if (!run(q,
             QStringLiteral(
                 "SELECT n.revision_id, n.number, n.first_seen, n.last_seen FROM revision_numbers n "
                 "JOIN revisions r ON r.id = n.revision_id WHERE r.daemonset_id = ? "
                 "ORDER BY n.revision_id, n.seq"),
             {ds}, error)) {
        fail(error);
        return {};
    }
    while (q.next()) {
        auto it = indexById.find(q.value(0).toLongLong());
        if (it == indexById.end())
            continue;
        out[it->second].numbers.append(
            RevisionNumberSpan{q.value(1).toLongLong(), q.value(2).toLongLong(), q.value(3).toLongLong()});
    }
    return out;
}

QString HistoryDatabase::daemonSetUid(const QString &contextKey, const QString &dsKey)
{
    if (!checkOpen())
        return {};
    const qint64 ctx = contextId(contextKey, false);
    if (ctx <= 0)
        return {};
    const qint64 ds = daemonSetId(ctx, dsKey, {}, 0, false);
    if (ds <= 0)
        return {};
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    if (!run(q, QStringLiteral("SELECT uid FROM daemonsets WHERE id = ?"), {ds}, error)) {
        fail(error);
        return {};
    }
    return q.next() ? q.value(0).toString() : QString();
}

QStringList HistoryDatabase::daemonSetKeys(const QString &contextKey)
{
    QStringList keys;
    if (!checkOpen())
        return keys;
    const qint64 ctx = contextId(contextKey, false);
    if (ctx <= 0)
        return keys;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    if (!run(q,
             QStringLiteral("SELECT DISTINCT namespace, name FROM daemonsets WHERE context_id = ? "
                            "ORDER BY namespace, name"),
             {ctx}, error)) {
        fail(error);
        return keys;
    }
    while (q.next()) {
        const QString ns = q.value(0).toString();
        keys.append(ns.isEmpty() ? q.value(1).toString() : ns + QLatin1Char('/') + q.value(1).toString());
    }
    return keys;
}

bool HistoryDatabase::restore(const QString &contextKey, RevisionMemory &memory)
{
    const QStringList keys = daemonSetKeys(contextKey);
    if (!m_lastError.isEmpty())
        return false;
    for (const QString &key : keys) {
        const QString uid = daemonSetUid(contextKey, key);
        if (!m_lastError.isEmpty())
            return false;
        std::vector<StoredRevision> stored = revisions(contextKey, key, uid);
        if (!m_lastError.isEmpty())
            return false;
        std::vector<RememberedRevision> remembered;
        remembered.reserve(stored.size());
        for (const StoredRevision &r : stored)
            remembered.push_back(r.toRemembered());
        memory.restore(key, uid, std::move(remembered));
    }
    return true;
}

bool HistoryDatabase::writeRollout(qint64 dsId, const RolloutRecord &rollout)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    if (!run(q,
             QStringLiteral(
                 "INSERT INTO rollouts (daemonset_id, from_hash, to_hash, from_revision, to_revision, "
                 "started, completed, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (daemonset_id, to_hash, started) DO UPDATE SET "
                 "from_hash = excluded.from_hash, from_revision = excluded.from_revision, "
                 "to_revision = excluded.to_revision, completed = excluded.completed, "
                 "outcome = excluded.outcome"),
             {dsId, rollout.fromHash, rollout.toHash, rollout.fromRevision, rollout.toRevision,
              rollout.started, rollout.completed, rollout.outcome},
             error))
        return fail(error);
    return true;
}

bool HistoryDatabase::recordRollout(const QString &contextKey, const QString &dsKey, const QString &uid,
                                    const RolloutRecord &rollout)
{
    if (!checkOpen())
        return false;
    QString error;
    Transaction tx(QSqlDatabase::database(m_connection, false));
    if (!tx.begin(error))
        return fail(error);
    const qint64 ctx = contextId(contextKey, true);
    if (ctx <= 0)
        return false;
    const qint64 ds = daemonSetId(ctx, dsKey, uid, rollout.started, true);
    if (ds <= 0 || !writeRollout(ds, rollout))
        return false;
    if (!tx.commit(error))
        return fail(error);
    return true;
}

std::vector<RolloutRecord> HistoryDatabase::rollouts(const QString &contextKey, const QString &dsKey,
                                                     const QString &uid)
{
    std::vector<RolloutRecord> out;
    if (!checkOpen())
        return out;
    const qint64 ctx = contextId(contextKey, false);
    if (ctx <= 0)
        return out;
    const qint64 ds = daemonSetId(ctx, dsKey, uid, 0, false);
    if (ds <= 0)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    if (!run(q,
             QStringLiteral(
                 "SELECT from_hash, to_hash, from_revision, to_revision, started, completed, outcome "
                 "FROM rollouts WHERE daemonset_id = ? ORDER BY started, id"),
             {ds}, error)) {
        fail(error);
        return out;
    }
    while (q.next()) {
        RolloutRecord r;
        r.fromHash = q.value(0).toString();
        r.toHash = q.value(1).toString();
        r.fromRevision = q.value(2).toLongLong();
        r.toRevision = q.value(3).toLongLong();
        r.started = q.value(4).toLongLong();
        r.completed = q.value(5).toLongLong();
        r.outcome = q.value(6).toString();
        out.push_back(std::move(r));
    }
    return out;
}

QString HistoryDatabase::parametersJson(const QString &parameters)
{
    const QString trimmed = parameters.trimmed();
    if (trimmed.startsWith(QLatin1Char('{'))) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(trimmed.toUtf8(), &parseError);
        if (parseError.error == QJsonParseError::NoError && doc.isObject())
            return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
    }
    QJsonObject object;
    if (!trimmed.isEmpty()) {
        bool pairs = true;
        for (const QString &part : trimmed.split(QLatin1Char(','))) {
            const qsizetype eq = part.indexOf(QLatin1Char('='));
            const QString key = eq < 0 ? QString() : part.left(eq).trimmed();
            if (key.isEmpty()) {
                pairs = false;
                break;
            }
            object.insert(key, part.mid(eq + 1).trimmed());
        }
        if (!pairs) {
            object = QJsonObject();
            object.insert(QStringLiteral("text"), parameters);
        }
    }
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

bool HistoryDatabase::writeAction(qint64 ctxId, const ActionRecord &action)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    if (!run(q,
             QStringLiteral(
                 "INSERT INTO actions (context_id, user, time, wall_time, target, action, parameters, "
                 "parameters_json, outcome, ok) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT DO NOTHING"),
             {ctxId, action.user, action.time, action.wallTime, action.target, actionKindName(action.kind),
              action.parameters, parametersJson(action.parameters), action.outcome, action.ok ? 1 : 0},
             error))
        return fail(error);
    return true;
}

bool HistoryDatabase::recordAction(const QString &contextKey, const ActionRecord &action)
{
    if (!checkOpen())
        return false;
    QString error;
    Transaction tx(QSqlDatabase::database(m_connection, false));
    if (!tx.begin(error))
        return fail(error);
    const qint64 ctx = contextId(contextKey, true);
    if (ctx <= 0 || !writeAction(ctx, action))
        return false;
    if (!tx.commit(error))
        return fail(error);
    return true;
}

std::vector<ActionRecord> HistoryDatabase::actions(const QString &contextKey, const QString &target)
{
    std::vector<ActionRecord> out;
    if (!checkOpen())
        return out;
    const qint64 ctx = contextId(contextKey, false);
    if (ctx <= 0)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    const QString select = QStringLiteral("SELECT user, time, wall_time, target, action, parameters, "
                                          "outcome, ok FROM actions WHERE context_id = ?");
    const bool ok = target.isEmpty() ? run(q, select + QStringLiteral(" ORDER BY id"), {ctx}, error)
                                     : run(q, select + QStringLiteral(" AND target = ? ORDER BY id"),
                                           {ctx, target}, error);
    if (!ok) {
        fail(error);
        return out;
    }
    while (q.next()) {
        const std::optional<ActionKind> kind = actionKindFromName(q.value(4).toString());
        if (!kind)
            continue;
        ActionRecord a;
        a.user = q.value(0).toString();
        a.time = q.value(1).toLongLong();
        a.wallTime = q.value(2).toLongLong();
        a.target = q.value(3).toString();
        a.kind = *kind;
        a.parameters = q.value(5).toString();
        a.outcome = q.value(6).toString();
        a.ok = q.value(7).toBool();
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace models
