#include "models/itemmodels/nodemapfilter.h"

#include "models/itemmodels/nodemapmodel.h"

namespace models {

NodeMapFilter::NodeMapFilter(QObject *parent) : QSortFilterProxyModel(parent)
{
    // Only the filter's own setters change what is accepted; data changes of the tiles
    // re-check the changed rows (labels and states may change).
    setDynamicSortFilter(true);
}

NodeMapFilter::Term NodeMapFilter::parseTerm(const QString &term, bool labelOnly)
{
    Term t;
    const qsizetype eq = term.indexOf(u'=');
    if (eq >= 0) {
        t.isLabel = true;
        t.key = term.left(eq);
        t.value = term.mid(eq + 1);
        t.anyValue = t.value.isEmpty();
    } else if (labelOnly) {
        t.isLabel = true;
        t.key = term;
        t.anyValue = true;
    } else {
        t.key = term;
    }
    return t;
}

bool NodeMapFilter::labelMatches(const QStringList &labels, const Term &term)
{
    for (const QString &label : labels) {
        const qsizetype eq = label.indexOf(u'=');
        const QStringView key = eq >= 0 ? QStringView(label).left(eq) : QStringView(label);
        if (key != term.key)
            continue;
        if (term.anyValue)
            return true;
        const QStringView value = eq >= 0 ? QStringView(label).mid(eq + 1) : QStringView();
        if (value == term.value)
            return true;
    }
    return false;
}

void NodeMapFilter::setFilterText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    m_terms.clear();
    const QStringList parts = text.split(u' ', Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        const QString trimmed = part.trimmed();
        if (!trimmed.isEmpty())
            m_terms << parseTerm(trimmed, false);
    }
    invalidateFilter();
}

void NodeMapFilter::setLabelFilter(const QString &label)
{
    const QString trimmed = label.trimmed();
    if (trimmed == m_label)
        return;
    m_label = trimmed;
    m_labelTerm = parseTerm(trimmed, true);
    invalidateFilter();
}

void NodeMapFilter::setStateFilter(const QList<NodeTile::PodState> &states)
{
    quint32 mask = 0;
    for (const auto s : states)
        mask |= 1u << static_cast<int>(s);
    if (mask == m_stateMask)
        return;
    m_stateMask = mask;
    invalidateFilter();
}

QList<NodeTile::PodState> NodeMapFilter::stateFilter() const
{
    QList<NodeTile::PodState> states;
    for (int s = 0; s <= static_cast<int>(NodeTile::PodState::NotScheduled); ++s) {
        if (m_stateMask & (1u << s))
            states << static_cast<NodeTile::PodState>(s);
    }
    return states;
}

void NodeMapFilter::setLagFilter(const QList<NodeTile::LagCause> &causes)
{
    quint32 mask = 0;
    for (const auto c : causes)
        mask |= 1u << static_cast<int>(c);
    if (mask == m_lagMask)
        return;
    m_lagMask = mask;
    invalidateFilter();
}

QList<NodeTile::LagCause> NodeMapFilter::lagFilter() const
{
    QList<NodeTile::LagCause> causes;
    for (int c = 0; c <= static_cast<int>(NodeTile::LagCause::RolloutPaused); ++c) {
        if (m_lagMask & (1u << c))
            causes << static_cast<NodeTile::LagCause>(c);
    }
    return causes;
}

void NodeMapFilter::setHighlightedRevision(qint64 revisionNumber)
{
    if (revisionNumber < 0)
        revisionNumber = -1;
    if (revisionNumber == m_highlighted)
        return;
    m_highlighted = revisionNumber;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, 0), {NodeMapModel::HighlightedRole});
    emit highlightedRevisionChanged(m_highlighted);
}

QVariant NodeMapFilter::data(const QModelIndex &index, int role) const
{
    if (role == NodeMapModel::HighlightedRole) {
        if (m_highlighted < 0 || !index.isValid())
            return false;
        return QSortFilterProxyModel::data(index, NodeMapModel::RevisionNumberRole).toLongLong() ==
               m_highlighted;
    }
    return QSortFilterProxyModel::data(index, role);
}

bool NodeMapFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_stateMask != 0) {
        const int state = idx.data(NodeMapModel::PodStateRole).toInt();
        if (!(m_stateMask & (1u << state)))
            return false;
    }
    if (m_lagMask != 0) {
        const int cause = idx.data(NodeMapModel::LagCauseRole).toInt();
        if (!(m_lagMask & (1u << cause)))
            return false;
    }
    if (m_terms.isEmpty() && m_label.isEmpty())
        return true;
    const QStringList labels = idx.data(NodeMapModel::LabelsRole).toStringList();
    if (!m_label.isEmpty() && !labelMatches(labels, m_labelTerm))
        return false;
    if (m_terms.isEmpty())
        return true;
    const QString node = idx.data(NodeMapModel::NodeNameRole).toString();
    for (const Term &t : m_terms) {
        if (t.isLabel ? !labelMatches(labels, t) : !node.contains(t.key, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

} // namespace models
