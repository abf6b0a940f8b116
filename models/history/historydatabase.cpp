#include "models/history/historydatabase.h"

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

// Runs one statement with positional bind values. On failure `error` names the statement.
bool run(QSqlQuery &query, const QString &sql, const QVariantList &values, QString &error,
         QSqlError *sqlError = nullptr)
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

// BEGIN IMMEDIATE takes the write lock up front: a deferred transaction that reads first and
// then writes can fail with SQLITE_BUSY in WAL mode without the busy timeout ever helping when
// another connection wrote in between. Rolls back unless committed.
class Transaction
{
public:
    explicit Transaction(const QSqlDatabase &db) : m_db(db) {}
    ~Transaction()
    {
        if (m_active) {
            QSqlQuery q(m_db);
            q.exec(QStringLiteral("ROLLBACK"));
        }
    }
    bool begin(QString &error)
    {
        QSqlQuery q(m_db);
        m_active = run(q, QStringLiteral("BEGIN IMMEDIATE"), {}, error);
        return m_active;
    }
    bool commit(QString &error)
    {
        QSqlQuery q(m_db);
        if (!run(q, QStringLiteral("COMMIT"), {}, error))
            return false; // the destructor rolls back
        m_active = false;
        return true;
    }

private:
    QSqlDatabase m_db;
    bool m_active = false;
};

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

void splitKey(const QString &dsKey, QString &ns, QString &name)
{
    const qsizetype slash = dsKey.indexOf(QLatin1Char('/'));
    ns = slash < 0 ? QString() : dsKey.left(slash);
    name = slash < 0 ? dsKey : dsKey.mid(slash + 1);
}

} // namespace

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
