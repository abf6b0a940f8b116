#pragma once
// What the history database's two files share: running one SQL statement with positional bind
// values, and the write transaction. Private to historydatabase.cpp and historyrecords.cpp.

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

namespace models::historysql {

// Runs one statement with positional bind values. On failure `error` names the statement.
bool run(QSqlQuery &query, const QString &sql, const QVariantList &values, QString &error,
         QSqlError *sqlError = nullptr);

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

} // namespace models::historysql
