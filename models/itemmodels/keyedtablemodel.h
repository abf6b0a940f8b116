#pragma once
// KeyedTableModel — a table model over a vector of rows that each carry a stable key, updated
// incrementally: applyRows() turns "the new list" into row removals, moves, insertions and
// dataChanged for rows whose content changed, never a reset. Views keep their selection and
// scroll position through routine updates, and persistent indexes follow their rows.
//
// Derived models supply rowKey/rowEqual and data(); the order of `next` is the display order.

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QString>

#include <iterator>
#include <vector>

namespace models {

template <typename Row> class KeyedTableModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }

    const Row *rowAt(int row) const
    {
        return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<std::size_t>(row)]
                                                                 : nullptr;
    }
    int rowOf(const QString &key) const
    {
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            if (rowKey(m_rows[i]) == key)
                return static_cast<int>(i);
        }
        return -1;
    }

protected:
    virtual QString rowKey(const Row &row) const = 0;
    virtual bool rowEqual(const Row &a, const Row &b) const = 0;

    // Keys in `next` must be unique.
    //
    // Cost: every key is computed once per call (derived models may build them by
    // concatenation); when the keys arrive in the order already shown — the routine case — no
    // hash is built and only the rows whose content changed are announced, one dataChanged per
    // contiguous run, so a 5,000-row model with a handful of changed rows costs one pass of
    // comparisons and a few signals.
    void applyRows(std::vector<Row> &&next) { apply<true>(next); }
    // The same from rows the caller keeps (shared snapshot data): only the rows that are new or
    // changed are copied.
    void applyRows(const std::vector<Row> &next) { apply<false>(next); }

    // Rows whose displayed value depends on the clock (ages): one dataChanged for the column.
    void columnChanged(int column)
    {
        if (!m_rows.empty())
            Q_EMIT dataChanged(index(0, column), index(static_cast<int>(m_rows.size()) - 1, column));
    }

    std::vector<Row> m_rows;

private:
    // Collects changed rows and announces each contiguous run with one dataChanged over all
    // columns; flushed before rows move and when it goes out of scope.
    class ChangedRuns
    {
    public:
        explicit ChangedRuns(KeyedTableModel *model) : m_model(model) {}
        ~ChangedRuns() { flush(); }
        ChangedRuns(const ChangedRuns &) = delete;
        ChangedRuns &operator=(const ChangedRuns &) = delete;
        void add(int row)
        {
            if (m_first >= 0 && row == m_last + 1) {
                m_last = row;
                return;
            }
            flush();
            m_first = m_last = row;
        }
        void flush()
        {
            if (m_first < 0)
                return;
            const int columns = m_model->columnCount();
            Q_EMIT m_model->dataChanged(m_model->index(m_first, 0), m_model->index(m_last, columns - 1));
            m_first = m_last = -1;
        }

    private:
        KeyedTableModel *m_model;
        int m_first = -1;
        int m_last = -1;
    };

    // Moves rows out of `next` when Move, else copies them.
    template <bool Move, typename Rows> void apply(Rows &next)
    {
        const std::vector<QString> nextKeys = keysOf(next);
        std::vector<QString> keys = keysOf(m_rows); // parallel to m_rows while the rows change below
        ChangedRuns changed(this);
        if (keys == nextKeys) {
            for (std::size_t i = 0; i < next.size(); ++i)
                refresh<Move>(next, i, changed);
            return;
        }
        removeGone(keys, nextKeys);
        // Walk the new order: keep, move up, or insert (runs of new rows as one block).
        QSet<QString> present;
        present.reserve(qsizetype(keys.size()));
        for (const QString &k : keys)
            present.insert(k);
        for (std::size_t i = 0; i < next.size(); ++i) {
            if (i < m_rows.size() && keys[i] == nextKeys[i]) {
                refresh<Move>(next, i, changed);
                continue;
            }
            changed.flush(); // row numbers shift below
            if (!present.contains(nextKeys[i]))
                i = insertRun<Move>(next, nextKeys, present, keys, i) - 1;
            else if (moveUp(keys, i, nextKeys[i]))
                refresh<Move>(next, i, changed);
        }
    }

    template <typename Rows> std::vector<QString> keysOf(const Rows &rows) const
    {
        std::vector<QString> keys;
        keys.reserve(rows.size());
        for (const Row &r : rows)
            keys.push_back(rowKey(r));
        return keys;
    }

    // Row i takes next[i] when its content changed.
    template <bool Move, typename Rows> void refresh(Rows &next, std::size_t i, ChangedRuns &changed)
    {
        if (rowEqual(m_rows[i], next[i]))
            return;
        if constexpr (Move)
            m_rows[i] = std::move(next[i]);
        else
            m_rows[i] = next[i];
        changed.add(static_cast<int>(i));
    }

    // Removes the rows whose keys `nextKeys` lacks, bottom-up, in contiguous blocks.
    void removeGone(std::vector<QString> &keys, const std::vector<QString> &nextKeys)
    {
        QSet<QString> wanted;
        wanted.reserve(qsizetype(nextKeys.size()));
        for (const QString &k : nextKeys)
            wanted.insert(k);
        for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0;) {
            if (wanted.contains(keys[static_cast<std::size_t>(i)])) {
                --i;
                continue;
            }
            int first = i;
            while (first > 0 && !wanted.contains(keys[static_cast<std::size_t>(first - 1)]))
                --first;
            beginRemoveRows({}, first, i);
            m_rows.erase(m_rows.begin() + first, m_rows.begin() + i + 1);
            keys.erase(keys.begin() + first, keys.begin() + i + 1);
            endRemoveRows();
            i = first - 1;
        }
    }

    // Inserts the run of new rows that starts at next[i] (up to the next key already shown) at
    // row i; returns where the run ends.
    template <bool Move, typename Rows>
    std::size_t insertRun(Rows &next, const std::vector<QString> &nextKeys, const QSet<QString> &present,
                          std::vector<QString> &keys, std::size_t i)
    {
        std::size_t end = i + 1;
        while (end < next.size() && !present.contains(nextKeys[end]))
            ++end;
        const int row = static_cast<int>(i);
        const auto from = static_cast<std::ptrdiff_t>(i);
        const auto to = static_cast<std::ptrdiff_t>(end);
        beginInsertRows({}, row, static_cast<int>(end) - 1);
        if constexpr (Move)
            m_rows.insert(m_rows.begin() + row, std::make_move_iterator(next.begin() + from),
                          std::make_move_iterator(next.begin() + to));
        else
            m_rows.insert(m_rows.begin() + row, next.begin() + from, next.begin() + to);
        keys.insert(keys.begin() + row, nextKeys.begin() + from, nextKeys.begin() + to);
        endInsertRows();
        return end;
    }

    // Moves the row with `key`, shown further down, up to row i; false when it is not there.
    bool moveUp(std::vector<QString> &keys, std::size_t i, const QString &key)
    {
        int found = -1;
        for (std::size_t j = i + 1; j < keys.size(); ++j) {
            if (keys[j] == key) {
                found = static_cast<int>(j);
                break;
            }
        }
        if (found < 0)
            return false;
        const int row = static_cast<int>(i);
        beginMoveRows({}, found, found, {}, row);
        Row moved = std::move(m_rows[static_cast<std::size_t>(found)]);
        m_rows.erase(m_rows.begin() + found);
        m_rows.insert(m_rows.begin() + row, std::move(moved));
        keys.erase(keys.begin() + found);
        keys.insert(keys.begin() + row, key);
        endMoveRows();
        return true;
    }
};

} // namespace models
