#include "ui/diffview.h"

#include "ui/diffpane.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTextBlock>
#include <QToolButton>

#include <algorithm>

namespace gui {

namespace {

// Builds a pane line from one side of a side-by-side row: the UTF-8 segments become one
// QString, and the changed segments become ranges in QString units.
DiffPane::Line paneLine(DiffPane::LineKind kind, int lineIndex, const std::string &text,
                        const std::vector<diff::Segment> &segments)
{
    DiffPane::Line line;
    line.kind = lineIndex < 0 ? DiffPane::LineKind::Filler : kind;
    line.number = lineIndex + 1;
    if (segments.empty()) {
        line.text = QString::fromStdString(text);
        return line;
    }
    for (const auto &s : segments) {
        const QString part = QString::fromStdString(s.text);
        if (s.changed && !part.isEmpty())
            line.changed.append({static_cast<int>(line.text.size()), static_cast<int>(part.size())});
        line.text += part;
    }
    return line;
}

} // namespace

DiffView::DiffView(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Template diff"));

    m_hideNoiseBox = new QCheckBox(tr("&Hide server noise"), this);
    m_hideNoiseBox->setToolTip(tr("Hide fields the API server fills in with defaults, and generated labels "
                                  "and annotations"));
    m_position = new QLabel(this);
    m_position->setMinimumWidth(
        m_position->fontMetrics().horizontalAdvance(tr("Change %1 of %2").arg(999).arg(999)));
    m_position->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_previous = new QToolButton(this);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous change (Shift+F7, Alt+Up)"));
    m_previous->setAccessibleName(tr("Previous change"));
    m_next = new QToolButton(this);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next change (F7, Alt+Down)"));
    m_next->setAccessibleName(tr("Next change"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_hideNoiseBox);
    bar->addStretch(1);
    bar->addWidget(m_position);
    bar->addWidget(m_previous);
    bar->addWidget(m_next);

    m_summary = new QListWidget(this);
    m_summary->setAccessibleName(tr("Summary of changes"));
    m_summary->setAlternatingRowColors(true);
    m_summary->setUniformItemSizes(true);
    m_noiseHint = new QLabel(this);
    m_noiseHint->setWordWrap(true);
    m_noiseHint->setVisible(false);

    auto *summaryBox = new QWidget(this);
    auto *summaryLayout = new QVBoxLayout(summaryBox);
    summaryLayout->setContentsMargins(0, 0, 0, 0);
    summaryLayout->addWidget(m_summary);
    summaryLayout->addWidget(m_noiseHint);

    m_left = new DiffPane(DiffPane::Side::Old, this);
    m_right = new DiffPane(DiffPane::Side::New, this);
    m_leftLabel = new QLabel(this);
    m_rightLabel = new QLabel(this);
    m_leftLabel->setBuddy(m_left);
    m_rightLabel->setBuddy(m_right);
    auto side = [this](QLabel *label, DiffPane *pane) {
        auto *w = new QWidget(this);
        auto *l = new QVBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        l->setSpacing(2);
        l->addWidget(label);
        l->addWidget(pane, 1);
        return w;
    };
    auto *panes = new QSplitter(Qt::Horizontal, this);
    panes->setObjectName(QStringLiteral("diffPanes")); // named: the window saves its sizes
    panes->addWidget(side(m_leftLabel, m_left));
    panes->addWidget(side(m_rightLabel, m_right));
    panes->setChildrenCollapsible(false);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("diffSummarySplit"));
    split->addWidget(summaryBox);
    split->addWidget(panes);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 5);
    split->setSizes({100, 500});
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_hideNoiseBox, &QCheckBox::toggled, this, &DiffView::setHideServerNoise);
    connect(m_summary, &QListWidget::currentRowChanged, this, [this](int row) {
        if (const int change = changeForSummary(row); change >= 0)
            setCurrentChange(change);
    });
    connect(m_next, &QToolButton::clicked, this, &DiffView::nextChange);
    connect(m_previous, &QToolButton::clicked, this, &DiffView::previousChange);
    const QKeySequence nextKeys[] = {QKeySequence(Qt::Key_F7), QKeySequence(Qt::ALT | Qt::Key_Down)};
    const QKeySequence previousKeys[] = {QKeySequence(Qt::SHIFT | Qt::Key_F7),
                                         QKeySequence(Qt::ALT | Qt::Key_Up)};
    for (const auto &k : nextKeys)
        new QShortcut(k, this, this, &DiffView::nextChange, Qt::WidgetWithChildrenShortcut);
    for (const auto &k : previousKeys)
        new QShortcut(k, this, this, &DiffView::previousChange, Qt::WidgetWithChildrenShortcut);
    syncScrollBars();
    clear();
}

void DiffView::syncScrollBars()
{
    // Both panes have the same rows, so equal values show matching lines. The guard stops the
    // two connections from echoing each other.
    auto link = [this](QScrollBar *a, QScrollBar *b) {
        connect(a, &QScrollBar::valueChanged, this, [b](int v) {
            if (b->value() != v)
                b->setValue(v);
        });
        connect(a, &QScrollBar::rangeChanged, this, [a, b](int, int) {
            if (b->value() != a->value())
                b->setValue(a->value());
        });
    };
    link(m_left->verticalScrollBar(), m_right->verticalScrollBar());
    link(m_right->verticalScrollBar(), m_left->verticalScrollBar());
    link(m_left->horizontalScrollBar(), m_right->horizontalScrollBar());
    link(m_right->horizontalScrollBar(), m_left->horizontalScrollBar());
}

void DiffView::setTemplates(const QString &leftTitle, const kube::Json &left, const QString &rightTitle,
                            const kube::Json &right)
{
    m_leftTitle = leftTitle;
    m_rightTitle = rightTitle;
    m_leftTemplate = left;
    m_rightTemplate = right;
    recompute();
}

void DiffView::clear()
{
    setTemplates({}, kube::Json::object(), {}, kube::Json::object());
}

void DiffView::setHideServerNoise(bool hide)
{
    if (hide == m_hideNoise)
        return;
    m_hideNoise = hide;
    m_hideNoiseBox->setChecked(hide);
    recompute();
    emit hideServerNoiseChanged(hide);
}

QPair<int, int> DiffView::changeRows(int index) const
{
    if (index < 0 || index >= changeCount())
        return {-1, -1};
    return m_blocks[static_cast<size_t>(index)];
}

void DiffView::recompute()
{
    diff::TemplateDiffInput input;
    input.oldName = m_leftTitle.toStdString();
    input.newName = m_rightTitle.toStdString();
    input.oldTemplate = m_leftTemplate;
    input.newTemplate = m_rightTemplate;
    input.ignoreServerNoise = m_hideNoise;
    m_diff = diff::TemplateDiff::compute(input);

    const auto rows = diff::sideBySide(m_diff.lines);
    QList<DiffPane::Line> left;
    QList<DiffPane::Line> right;
    left.reserve(static_cast<qsizetype>(rows.size()));
    right.reserve(static_cast<qsizetype>(rows.size()));
    m_blocks.clear();
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto &row = rows[i];
        DiffPane::LineKind leftKind = DiffPane::LineKind::Equal;
        DiffPane::LineKind rightKind = DiffPane::LineKind::Equal;
        switch (row.kind) {
        case diff::RowKind::Equal:
            break;
        case diff::RowKind::Changed:
            leftKind = rightKind = DiffPane::LineKind::Changed;
            break;
        case diff::RowKind::Added:
            rightKind = DiffPane::LineKind::Added;
            break;
        case diff::RowKind::Removed:
            leftKind = DiffPane::LineKind::Removed;
            break;
        }
        left << paneLine(leftKind, row.leftLine, row.leftText, row.leftSegments);
        right << paneLine(rightKind, row.rightLine, row.rightText, row.rightSegments);
        if (row.kind != diff::RowKind::Equal) {
            const int r = static_cast<int>(i);
            if (!m_blocks.empty() && m_blocks.back().second == r - 1)
                m_blocks.back().second = r;
            else
                m_blocks.push_back({r, r});
        }
    }
    m_left->setLines(std::move(left));
    m_right->setLines(std::move(right));

    const QString leftName = m_leftTitle.isEmpty() ? tr("Old") : m_leftTitle;
    const QString rightName = m_rightTitle.isEmpty() ? tr("New") : m_rightTitle;
    m_leftLabel->setText(leftName);
    m_rightLabel->setText(rightName);
    m_left->setAccessibleName(tr("Old template: %1").arg(leftName));
    m_right->setAccessibleName(tr("New template: %1").arg(rightName));

    fillSummary();
    const int previous = m_current;
    m_current = -1;
    setCurrentChange(m_blocks.empty() ? -1 : qBound(0, previous, changeCount() - 1));
    if (m_current < 0)
        updateNavigation();
    emit diffChanged();
}

void DiffView::fillSummary()
{
    m_summary->clear();
    if (m_diff.summary.identical()) {
        auto *item = new QListWidgetItem(m_hideNoise ? tr("No differences apart from server-side noise")
                                                     : tr("The templates are identical"),
                                         m_summary);
        item->setFlags(Qt::ItemIsEnabled);
        QFont f = item->font();
        f.setItalic(true);
        item->setFont(f);
    } else {
        for (const auto &change : m_diff.summary.changes) {
            auto *item = new QListWidgetItem(m_summary);
            QString text = QString::fromStdString(change.summary);
            if (!change.container.empty())
                text = tr("%1: %2").arg(QString::fromStdString(change.container), text);
            item->setText(text);
            item->setData(Qt::UserRole, QString::fromStdString(change.category));
            item->setToolTip(QString::fromStdString(change.path));
        }
    }
    m_summary->setAccessibleDescription(
        tr("%n changes", nullptr, static_cast<int>(m_diff.summary.changes.size())));

    // Say when every difference is noise, so a reviewer is not alarmed by a wall of defaults.
    bool onlyNoise = false;
    if (!m_hideNoise && !m_diff.summary.identical())
        onlyNoise = diff::summarize(m_leftTemplate, m_rightTemplate, {true}).identical();
    m_noiseHint->setText(
        tr("All differences are fields the API server fills in. Tick “Hide server noise” to hide "
           "them."));
    m_noiseHint->setVisible(onlyNoise);
}

QStringList DiffView::summaryLines() const
{
    QStringList out;
    if (m_diff.summary.identical())
        return out;
    for (int i = 0; i < m_summary->count(); ++i)
        out << m_summary->item(i)->text();
    return out;
}

int DiffView::changeForSummary(int index) const
{
    if (index < 0 || index >= static_cast<int>(m_diff.summary.changes.size()))
        return -1;
    const diff::Change &c = m_diff.summary.changes[static_cast<size_t>(index)];
    // What the YAML of a change shows: its new or old scalar value, the name of the entry,
    // else the name of the field it changed ("image:"). The first block containing one of them is the change.
    auto scalar = [](const std::optional<kube::Json> &j) {
        if (!j || j->is_object() || j->is_array() || j->is_null())
            return QString();
        return j->is_string() ? QString::fromStdString(j->get<std::string>())
                              : QString::fromStdString(j->dump());
    };
    // Named list entries (env, containers, volumes, ports) render as "- name: X".
    auto named = [](const std::optional<kube::Json> &j) {
        if (!j || !j->is_object() || !j->contains("name") || !(*j)["name"].is_string())
            return QString();
        return QStringLiteral("name: ") + QString::fromStdString((*j)["name"].get<std::string>());
    };
    QStringList needles{scalar(c.after), scalar(c.before), named(c.after), named(c.before)};
    const QStringList parts = QString::fromStdString(c.path).split(u'/', Qt::SkipEmptyParts);
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        bool numeric = false;
        it->toInt(&numeric);
        if (!numeric) {
            needles << *it + u':';
            break;
        }
    }
    const auto &left = m_left->lines();
    const auto &right = m_right->lines();
    for (const QString &needle : std::as_const(needles)) {
        if (needle.isEmpty())
            continue;
        for (int b = 0; b < changeCount(); ++b) {
            const auto [first, last] = m_blocks[static_cast<size_t>(b)];
            for (int r = first; r <= last; ++r) {
                if (left[r].text.contains(needle) || right[r].text.contains(needle))
                    return b;
            }
        }
    }
    return -1;
}

void DiffView::nextChange()
{
    if (m_current + 1 < changeCount())
        setCurrentChange(m_current + 1);
}

void DiffView::previousChange()
{
    if (m_current > 0)
        setCurrentChange(m_current - 1);
}

void DiffView::setCurrentChange(int index)
{
    if (index < -1 || index >= changeCount() || index == m_current)
        return;
    m_current = index;
    const auto [first, last] = changeRows(index);
    m_left->setCurrentRows(first, last);
    m_right->setCurrentRows(first, last);
    if (first >= 0) {
        // Put the change in the middle of the left pane; the right one follows its scroll bar.
        QTextCursor cursor(m_left->document()->findBlockByNumber(first));
        m_left->setTextCursor(cursor);
        m_left->centerCursor();
        QTextCursor rightCursor(m_right->document()->findBlockByNumber(first));
        m_right->setTextCursor(rightCursor);
        m_right->verticalScrollBar()->setValue(m_left->verticalScrollBar()->value());
        revealCurrentChange();
    }
    updateNavigation();
    emit currentChangeChanged(index);
}

void DiffView::revealCurrentChange()
{
    if (m_current < 0)
        return;
    // A changed image tag at the end of a long line must not sit past the right edge: scroll
    // both panes (their horizontal bars are linked) so the changed text of either side shows.
    const auto [first, last] = changeRows(m_current);
    const int value = std::max(m_left->scrollToReveal(first, last), m_right->scrollToReveal(first, last));
    m_left->horizontalScrollBar()->setValue(value);
    m_right->horizontalScrollBar()->setValue(value);
}

void DiffView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The panes' widths are known only now (a dialog lays out before it shows).
    QMetaObject::invokeMethod(this, &DiffView::revealCurrentChange, Qt::QueuedConnection);
}

void DiffView::updateNavigation()
{
    m_previous->setEnabled(m_current > 0);
    m_next->setEnabled(m_current + 1 < changeCount());
    if (changeCount() == 0)
        m_position->setText(tr("No changes"));
    else
        m_position->setText(tr("Change %1 of %2").arg(m_current + 1).arg(changeCount()));
}

void DiffView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        recompute();
}

} // namespace gui
