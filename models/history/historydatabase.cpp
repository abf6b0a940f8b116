#include "models/history/historydatabase.h"
#include "models/history/historysql.h"

#include "models/kube/jsonlimits.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <atomic>
#include <map>
#include <optional>

namespace models {

using namespace historysql;

namespace {

// SQLite primary result codes that mean "this file is not a usable database" (as opposed to
// I/O, permission or lock errors, which must never make us move a user's file aside).
constexpr int kSqliteCorrupt = 11;
constexpr int kSqliteNotADatabase = 26;

bool isCorruption(const QSqlError &error)
{
    bool ok = false;
    const int code =
        error.nativeErrorCode().toInt(&ok) & 0xff; // extended codes keep the primary in the low byte
    return ok && (code == kSqliteCorrupt || code == kSqliteNotADatabase);
}

QString describe(const QSqlError &error)
{
    const QString text = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    return text.isEmpty() ? QStringLiteral("unknown SQLite error") : text;
}

// Schema migrations: entry i brings the schema from version i to i + 1. Existing entries are
// never edited once released; a schema change appends one.
const std::vector<QStringList> &migrations()
{
    static const std::vector<QStringList> all = {
        {
            QStringLiteral("CREATE TABLE contexts ("
                           " id INTEGER PRIMARY KEY,"
                           " key TEXT NOT NULL UNIQUE,"    // embedded:<scenario> or <context>@<server>
                           " first_seen INTEGER NOT NULL," // wall ms
                           " last_seen INTEGER NOT NULL)"),
            QStringLiteral("CREATE TABLE daemonsets ("
                           " id INTEGER PRIMARY KEY,"
                           " context_id INTEGER NOT NULL REFERENCES contexts(id),"
                           " namespace TEXT NOT NULL,"
                           " name TEXT NOT NULL,"
                           " uid TEXT NOT NULL,"
                           " first_seen INTEGER NOT NULL,"
                           " last_seen INTEGER NOT NULL,"
                           " UNIQUE (context_id, namespace, name, uid))"),
            QStringLiteral("CREATE TABLE revisions ("
                           " id INTEGER PRIMARY KEY,"
                           " daemonset_id INTEGER NOT NULL REFERENCES daemonsets(id),"
                           " name TEXT NOT NULL,"
                           " hash TEXT NOT NULL,"
                           " number INTEGER NOT NULL," // the latest number
                           " change_cause TEXT NOT NULL,"
                           " image_summary TEXT NOT NULL,"
                           " template_json TEXT NOT NULL," // canonical (Go-compatible) JSON
                           " created INTEGER NOT NULL,"
                           " first_seen INTEGER NOT NULL,"
                           " last_seen INTEGER NOT NULL,"
                           " removed_at INTEGER," // NULL while the cluster still has it
                           " UNIQUE (daemonset_id, name))"),
            QStringLiteral("CREATE TABLE revision_numbers ("
                           " revision_id INTEGER NOT NULL REFERENCES revisions(id),"
                           " seq INTEGER NOT NULL,"
                           " number INTEGER NOT NULL,"
                           " first_seen INTEGER NOT NULL,"
                           " last_seen INTEGER NOT NULL,"
                           " PRIMARY KEY (revision_id, seq))"),
            QStringLiteral("CREATE TABLE rollouts ("
                           " id INTEGER PRIMARY KEY,"
                           " daemonset_id INTEGER NOT NULL REFERENCES daemonsets(id),"
                           " from_hash TEXT NOT NULL,"
                           " to_hash TEXT NOT NULL,"
                           " from_revision INTEGER NOT NULL,"
                           " to_revision INTEGER NOT NULL,"
                           " started INTEGER NOT NULL,"
                           " completed INTEGER NOT NULL," // 0 while in progress
                           " outcome TEXT NOT NULL,"
                           " UNIQUE (daemonset_id, to_hash, started))"),
            QStringLiteral("CREATE TABLE actions ("
                           " id INTEGER PRIMARY KEY,"
                           " context_id INTEGER NOT NULL REFERENCES contexts(id),"
                           " user TEXT NOT NULL,"
                           " time INTEGER NOT NULL," // cluster time (virtual for embedded)
                           " wall_time INTEGER NOT NULL,"
                           " target TEXT NOT NULL,"
                           " action TEXT NOT NULL,"     // actionKindName()
                           " parameters TEXT NOT NULL," // as shown to the user
                           " parameters_json TEXT NOT NULL,"
                           " outcome TEXT NOT NULL,"
                           " ok INTEGER NOT NULL,"
                           " UNIQUE (context_id, target, wall_time, time, user, action, parameters))"),
            QStringLiteral("CREATE INDEX actions_by_target ON actions (context_id, target, id)"),
        },
    };
    return all;
}

std::atomic<quint64> g_connectionCounter{0};

void splitKey(const QString &dsKey, QString &ns, QString &name)
{
    const qsizetype slash = dsKey.indexOf(QLatin1Char('/'));
    ns = slash < 0 ? QString() : dsKey.left(slash);
    name = slash < 0 ? dsKey : dsKey.mid(slash + 1);
}

} // namespace

namespace historysql {

bool run(QSqlQuery &query, const QString &sql, const QVariantList &values, QString &error,
         QSqlError *sqlError)
{
    if (!query.prepare(sql)) {
        if (sqlError)
            *sqlError = query.lastError();
        error = describe(query.lastError());
        return false;
    }
    for (const QVariant &v : values) {
        // A null QString binds as SQL NULL; every text column here is NOT NULL and means "".
        if (v.typeId() == QMetaType::QString && v.toString().isNull())
            query.addBindValue(QStringLiteral(""));
        else
            query.addBindValue(v);
    }
    if (!query.exec()) {
        if (sqlError)
            *sqlError = query.lastError();
        error = describe(query.lastError());
        return false;
    }
    return true;
}

} // namespace historysql

RevisionRecord RevisionRecord::fromInfo(const RevisionInfo &info)
{
    RevisionRecord r;
    r.name = info.name;
    r.hash = info.hash;
    r.number = info.number;
    r.created = info.created;
    r.changeCause = info.changeCause;
    r.imageSummary = info.imageSummary;
    r.podTemplate = info.podTemplate;
    return r;
}

QList<qint64> StoredRevision::numberHistory() const
{
    QList<qint64> out;
    for (const RevisionNumberSpan &span : numbers)
        out.append(span.number);
    return out;
}

RememberedRevision StoredRevision::toRemembered() const
{
    RememberedRevision r;
    r.name = name;
    r.hash = hash;
    r.number = number;
    for (qsizetype i = 0; i + 1 < numbers.size(); ++i)
        r.previousNumbers.append(numbers[i].number);
    r.created = created;
    r.changeCause = changeCause;
    r.imageSummary = imageSummary;
    r.podTemplate = podTemplate;
    r.firstSeen = firstSeen;
    r.lastSeen = lastSeen;
    r.removed = removed;
    r.removedAt = removedAt;
    return r;
}

RolloutRecord RolloutRecord::fromTiming(const RolloutTiming &timing)
{
    RolloutRecord r;
    r.fromHash = timing.fromHash;
    r.toHash = timing.toHash;
    r.fromRevision = timing.fromRevision;
    r.toRevision = timing.toRevision;
    r.started = timing.started;
    r.completed = timing.completed;
    if (timing.completed > 0)
        r.outcome = QStringLiteral("complete");
    else if (!timing.supersededBy.isEmpty())
        r.outcome = QStringLiteral("superseded by %1").arg(timing.supersededBy);
    else
        r.outcome = QStringLiteral("in progress");
    return r;
}

HistoryDatabase::HistoryDatabase(const QString &path)
    : m_path(QFileInfo(path.isEmpty() ? defaultPath() : path).absoluteFilePath()),
      m_connection(QStringLiteral("daemonscope-history-%1").arg(g_connectionCounter.fetch_add(1)))
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        m_openError = tr("History is not saved: the Qt SQLite driver (QSQLITE) is not installed.");
        return;
    }
    // The history holds full pod templates, environment values included: the folders made for
    // it and the file (with SQLite's journal files, which take the file's mode) are the owner's.
    const QString dir = QFileInfo(m_path).absolutePath();
    QStringList created;
    for (QDir d(dir); !d.exists(); d.setPath(QFileInfo(d.path()).absolutePath())) {
        created.prepend(d.path());
        if (d.isRoot())
            break;
    }
    constexpr QFileDevice::Permissions ownerOnlyDir =
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
    for (const QString &folder : created) {
        if (!QDir().mkdir(folder, ownerOnlyDir) && !QFileInfo(folder).isDir()) {
            m_openError = tr("History is not saved: the folder %1 cannot be created.")
                              .arg(QDir::toNativeSeparators(dir));
            return;
        }
    }
    openFile(true);
}

HistoryDatabase::~HistoryDatabase()
{
    closeConnection();
}

QString HistoryDatabase::defaultPath()
{
    // Spelled out rather than AppDataLocation, which follows the running application's names:
    // the headless commands (application "daemonscope") must find the GUI's file.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/Daemonscope/Daemonscope/history.sqlite");
}

QString HistoryDatabase::embeddedContextKey(const QString &scenarioName)
{
    return QStringLiteral("embedded:") + scenarioName;
}

QString HistoryDatabase::liveContextKey(const QString &context, const QString &server)
{
    return context + QLatin1Char('@') + server;
}

void HistoryDatabase::closeConnection()
{
    if (!QSqlDatabase::contains(m_connection))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
    m_open = false;
}

bool HistoryDatabase::openFile(bool allowRecovery)
{
    const QString nativePath = QDir::toNativeSeparators(m_path);
    QString corruptReason;

    // Created empty (a valid, empty database) with its final mode before SQLite opens it, which
    // would make it 0644; SQLite gives its journal files the database file's mode.
    constexpr QFileDevice::Permissions ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    if (QFile created(m_path); !created.exists()) {
        if (created.open(QIODevice::WriteOnly | QIODevice::NewOnly, ownerOnly))
            created.close();
    }
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        if (QFile::exists(m_path + suffix))
            QFile::setPermissions(m_path + suffix, ownerOnly);
    }

    // A file that does not start with the SQLite header is not ours to open; SQLite would
    // only say "file is not a database" at the first query anyway. An empty file is a valid,
    // empty database.
    QFile file(m_path);
    if (file.exists() && file.size() > 0) {
        if (!file.open(QIODevice::ReadOnly)) {
            m_openError =
                tr("History is not saved: %1 cannot be read (%2).").arg(nativePath, file.errorString());
            return false;
        }
        const QByteArray header = file.read(16);
        file.close();
        if (header != QByteArray("SQLite format 3\0", 16))
            corruptReason = tr("not an SQLite database");
    }

    if (corruptReason.isEmpty()) {
        QString error;
        QSqlError sqlError;
        bool ok = false;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
            db.setDatabaseName(m_path);
            // Another instance (a second window, the headless CLI) may hold the write lock.
            db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
            if (!db.open()) {
                sqlError = db.lastError();
                error = describe(sqlError);
            } else {
                QSqlQuery q(db);
                if (run(q, QStringLiteral("PRAGMA quick_check"), {}, error, &sqlError)) {
                    QStringList rows;
                    while (q.next())
                        rows.append(q.value(0).toString());
                    if (rows != QStringList{QStringLiteral("ok")}) {
                        // Rows look like "*** in database main ***\nPage 7: btreeInitPage() returns
                        // error code 11"; the first few problems are enough for a message.
                        QStringList problems;
                        for (const QString &row : rows) {
                            for (const QString &line : row.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                                if (!line.startsWith(QStringLiteral("***")))
                                    problems.append(line.trimmed());
                            }
                        }
                        corruptReason = problems.isEmpty() ? tr("integrity check failed")
                                                           : problems.mid(0, 3).join(QStringLiteral("; "));
                    } else
                        ok = run(q, QStringLiteral("PRAGMA foreign_keys=ON"), {}, error, &sqlError) &&
                             run(q, QStringLiteral("PRAGMA journal_mode=WAL"), {}, error, &sqlError);
                }
            }
        }
        if (ok) {
            m_open = true;
            if (migrate(corruptReason))
                return true;
            closeConnection();
            if (corruptReason.isEmpty())
                return false; // migrate() said why in m_openError
        } else {
            closeConnection();
            if (corruptReason.isEmpty() && isCorruption(sqlError))
                corruptReason = error;
            if (corruptReason.isEmpty()) {
                m_openError = tr("History is not saved: %1 cannot be opened (%2).").arg(nativePath, error);
                return false;
            }
        }
    }

    if (!allowRecovery) {
        m_openError = tr("History is not saved: %1 is still damaged after recovery (%2).")
                          .arg(nativePath, corruptReason);
        return false;
    }
    if (!moveAside(corruptReason))
        return false;
    m_openError.clear();
    return openFile(false);
}

bool HistoryDatabase::moveAside(const QString &reason)
{
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
    QString target = m_path + QStringLiteral(".corrupt-") + stamp;
    for (int n = 2; QFile::exists(target) || QFile::exists(target + QStringLiteral("-wal")); ++n)
        target = m_path + QStringLiteral(".corrupt-") + stamp + QLatin1Char('-') + QString::number(n);

    if (!QFile::rename(m_path, target)) {
        m_openError = tr("History is not saved: %1 is damaged (%2) and cannot be moved aside to %3.")
                          .arg(QDir::toNativeSeparators(m_path), reason, QDir::toNativeSeparators(target));
        return false;
    }
    // The write-ahead log belongs to the damaged file: left in place, SQLite would replay its
    // pages into the fresh database.
    for (const QString &suffix : {QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        if (QFile::exists(m_path + suffix) && !QFile::rename(m_path + suffix, target + suffix)) {
            m_openError =
                tr("History is not saved: %1 is damaged (%2) and its journal %3 cannot be moved aside.")
                    .arg(QDir::toNativeSeparators(m_path), reason, QDir::toNativeSeparators(m_path + suffix));
            return false;
        }
    }
    m_movedAside = target;
    m_recoveryMessage = tr("The history database %1 was damaged (%2). It was moved to %3 and a new, empty "
                           "history was started.")
                            .arg(QDir::toNativeSeparators(m_path), reason, QDir::toNativeSeparators(target));
    return true;
}

bool HistoryDatabase::migrate(QString &corruptReason)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    const QString nativePath = QDir::toNativeSeparators(m_path);
    QString error;
    QSqlError sqlError;
    auto failed = [&] {
        if (isCorruption(sqlError))
            corruptReason = error;
        m_openError = tr("History is not saved: %1 cannot be prepared (%2).").arg(nativePath, error);
        return false;
    };

    Transaction tx(db);
    if (!tx.begin(error))
        return failed();
    QSqlQuery q(db);
    if (!run(q, QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"), {},
             error, &sqlError) ||
        !run(q, QStringLiteral("SELECT version FROM schema_version"), {}, error, &sqlError))
        return failed();
    int version = 0;
    const bool hasRow = q.next();
    if (hasRow)
        version = q.value(0).toInt();
    q.finish();
    if (version > kSchemaVersion) {
        m_openError =
            tr("History is not saved: %1 was written by a newer version of Daemonscope (schema %2, this "
               "version knows %3) and is left untouched.")
                .arg(nativePath)
                .arg(version)
                .arg(kSchemaVersion);
        return false;
    }
    if (!hasRow &&
        !run(q, QStringLiteral("INSERT INTO schema_version (version) VALUES (0)"), {}, error, &sqlError))
        return failed();
    const auto &steps = migrations();
    for (int v = version; v < kSchemaVersion; ++v) {
        for (const QString &sql : steps[std::size_t(v)]) {
            if (!run(q, sql, {}, error, &sqlError))
                return failed();
        }
        if (!run(q, QStringLiteral("UPDATE schema_version SET version = ?"), {v + 1}, error, &sqlError))
            return failed();
    }
    if (!tx.commit(error))
        return failed();
    return true;
}

int HistoryDatabase::schemaVersion() const
{
    if (!m_open)
        return 0;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("SELECT version FROM schema_version")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

bool HistoryDatabase::fail(const QString &message)
{
    m_lastError = message;
    return false;
}

bool HistoryDatabase::checkOpen()
{
    m_lastError.clear();
    if (m_open)
        return true;
    return fail(m_openError.isEmpty() ? tr("History is not available.") : m_openError);
}

qint64 HistoryDatabase::contextId(const QString &contextKey, bool create)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    if (create) {
        const qint64 wall = QDateTime::currentMSecsSinceEpoch();
        if (!run(q,
                 QStringLiteral("INSERT INTO contexts (key, first_seen, last_seen) VALUES (?, ?, ?) "
                                "ON CONFLICT (key) DO UPDATE SET last_seen = excluded.last_seen"),
                 {contextKey, wall, wall}, error)) {
            fail(error);
            return kFailed;
        }
    }
    if (!run(q, QStringLiteral("SELECT id FROM contexts WHERE key = ?"), {contextKey}, error)) {
        fail(error);
        return kFailed;
    }
    return q.next() ? q.value(0).toLongLong() : kNotFound;
}

qint64 HistoryDatabase::daemonSetId(qint64 ctxId, const QString &dsKey, const QString &uid, qint64 now,
                                    bool create)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    QString error;
    QString ns, name;
    splitKey(dsKey, ns, name);
    // UIDs are never reused, so the incarnation created last is the current one.
    if (uid.isEmpty()) {
        if (!run(q,
                 QStringLiteral(
                     "SELECT id FROM daemonsets WHERE context_id = ? AND namespace = ? AND name = ? "
                     "ORDER BY id DESC LIMIT 1"),
                 {ctxId, ns, name}, error)) {
            fail(error);
            return kFailed;
        }
        if (q.next()) {
            const qint64 id = q.value(0).toLongLong();
            q.finish();
            if (create && !run(q, QStringLiteral("UPDATE daemonsets SET last_seen = ? WHERE id = ?"),
                               {now, id}, error)) {
                fail(error);
                return kFailed;
            }
            return id;
        }
        q.finish();
    } else if (create) {
        if (!run(q,
                 QStringLiteral(
                     "INSERT INTO daemonsets (context_id, namespace, name, uid, first_seen, last_seen) "
                     "VALUES (?, ?, ?, ?, ?, ?) "
                     "ON CONFLICT (context_id, namespace, name, uid) DO UPDATE SET last_seen = "
                     "excluded.last_seen"),
                 {ctxId, ns, name, uid, now, now}, error)) {
            fail(error);
            return kFailed;
        }
    }
    if (uid.isEmpty()) {
        if (!create)
            return kNotFound;
        if (!run(q,
                 QStringLiteral(
                     "INSERT INTO daemonsets (context_id, namespace, name, uid, first_seen, last_seen) "
                     "VALUES (?, ?, ?, '', ?, ?)"),
                 {ctxId, ns, name, now, now}, error)) {
            fail(error);
            return kFailed;
        }
        return q.lastInsertId().toLongLong();
    }
    if (!run(q,
             QStringLiteral(
                 "SELECT id FROM daemonsets WHERE context_id = ? AND namespace = ? AND name = ? AND uid = ?"),
             {ctxId, ns, name, uid}, error)) {
        fail(error);
        return kFailed;
    }
    return q.next() ? q.value(0).toLongLong() : kNotFound;
}

} // namespace models
