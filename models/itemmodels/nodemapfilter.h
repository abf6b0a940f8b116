#pragma once
// Filter over the node map: search text, a label, a set of pod states, a set of causes a node
// is behind for; plus the revision a
// timeline selection highlights (answered as NodeMapModel::HighlightedRole). Keeps the
// source's zone/node order.

#include "models/itemmodels/nodetile.h"

#include <QList>
#include <QSortFilterProxyModel>

namespace models {

class NodeMapFilter : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit NodeMapFilter(QObject *parent = nullptr);

    // Whitespace-separated terms, all of which must match: "key=value" matches a label
    // exactly ("key=" matches any value of key), any other term is a case-insensitive
    // substring of the node name.
    void setFilterText(const QString &text);
    QString filterText() const { return m_text; }

    // "key=value" (exact label) or "key" (the label exists); empty shows every node.
    void setLabelFilter(const QString &label);
    QString labelFilter() const { return m_label; }

    // Only tiles in one of these states; an empty list shows every state.
    void setStateFilter(const QList<NodeTile::PodState> &states);
    QList<NodeTile::PodState> stateFilter() const;

    // Only nodes behind for one of these causes; an empty list shows every node.
    void setLagFilter(const QList<NodeTile::LagCause> &causes);
    QList<NodeTile::LagCause> lagFilter() const;

    // -1 clears the highlight.
    void setHighlightedRevision(qint64 revisionNumber);
    qint64 highlightedRevision() const { return m_highlighted; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

signals:
    void highlightedRevisionChanged(qint64 revisionNumber);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    struct Term
    {
        bool isLabel = false;
        QString key;   // label key, or the node-name substring
        QString value; // label value; empty with isLabel matches any value
        bool anyValue = false;
    };
    static Term parseTerm(const QString &term, bool labelOnly);
    static bool labelMatches(const QStringList &labels, const Term &term);

    QString m_text;
    QList<Term> m_terms;
    QString m_label;
    Term m_labelTerm;
    quint32 m_stateMask = 0; // bit per PodState; 0 = all
    quint32 m_lagMask = 0;   // bit per LagCause; 0 = all
    qint64 m_highlighted = -1;
};

} // namespace models
