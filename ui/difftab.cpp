#include "ui/difftab.h"

#include "ui/diffview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gui {

const QString &DiffTab::liveKey()
{
    static const QString key = QStringLiteral("#live");
    return key;
}

DiffTab::DiffTab(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_left = new QComboBox(this);
    m_left->setAccessibleName(tr("Old revision"));
    m_left->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_right = new QComboBox(this);
    m_right->setAccessibleName(tr("New revision"));
    m_right->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *leftLabel = new QLabel(tr("&Old:"), this);
    leftLabel->setBuddy(m_left);
    auto *rightLabel = new QLabel(tr("&New:"), this);
    rightLabel->setBuddy(m_right);
    m_swap = new QToolButton(this);
    m_swap->setText(tr("Swap"));
    m_swap->setToolTip(tr("Swap old and new"));
    m_swap->setAccessibleName(tr("Swap old and new"));
    m_swap->setIcon(style()->standardIcon(QStyle::SP_BrowserReload, nullptr, this));
    m_swap->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addWidget(leftLabel);
    bar->addWidget(m_left, 1);
    bar->addWidget(m_swap);
    bar->addWidget(rightLabel);
    bar->addWidget(m_right, 1);
    layout->addLayout(bar);

    m_view = new DiffView(this);
    m_view->setAccessibleName(tr("Template diff"));
    layout->addWidget(m_view, 1);

    for (QComboBox *box : {m_left, m_right}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_updating)
                m_followsRollouts = leftKey() == m_defaultLeft && rightKey() == m_defaultRight;
            refreshDiff();
        });
    }
    connect(m_swap, &QToolButton::clicked, this, [this] { setPairByKey(rightKey(), leftKey()); });
}

void DiffTab::setDaemonSet(const models::DaemonSetInfo *ds,
                           const std::vector<models::RememberedRevision> &remembered)
{
    const QString key = ds ? ds->key : QString();
    const bool other = key != m_dsKey;
    m_dsKey = key;
    const QString oldLeft = leftKey();
    const QString oldRight = rightKey();

    m_choices.clear();
    if (ds) {
        if (ds->revisions) {
            for (const auto &r : *ds->revisions) {
                Choice c;
                c.key = r.name;
                c.number = r.number;
                c.title = tr("revision %1 (%2)").arg(r.number).arg(r.hash);
                // Images before the hash: when the picker is narrow, the hash is cut, never the tag
                // that tells two revisions apart.
                c.label =
                    r.current
                        ? tr("Revision %1 (current) · %2 · %3").arg(r.number).arg(r.imageSummary, r.hash)
                        : tr("Revision %1 · %2 · %3").arg(r.number).arg(r.imageSummary, r.hash);
                c.podTemplate = r.podTemplate;
                m_choices.push_back(std::move(c));
            }
        }
        for (const auto &r : remembered) {
            if (!r.removed || !r.podTemplate)
                continue;
            Choice c;
            c.key = r.name;
            c.number = r.number;
            c.title = tr("revision %1 (%2, removed)").arg(r.number).arg(r.hash);
            c.label = tr("Revision %1 (removed) · %2 · %3").arg(r.number).arg(r.imageSummary, r.hash);
            c.podTemplate = r.podTemplate;
            m_choices.push_back(std::move(c));
        }
        std::stable_sort(m_choices.begin(), m_choices.end(),
                         [](const Choice &a, const Choice &b) { return a.number < b.number; });
        Choice live;
        live.key = liveKey();
        live.title = tr("live template");
        live.label = tr("Live template (spec.template)");
        live.podTemplate = ds->podTemplate;
        m_choices.push_back(std::move(live));
    }

    // Default: what the last rollout changed — the revision before the current one against it.
    QString current;
    QString previous;
    if (ds && ds->revisions) {
        for (const auto &r : *ds->revisions) {
            if (r.current)
                current = r.name;
        }
        for (const auto &r : *ds->revisions) {
            if (!r.current)
                previous = r.name; // highest number below the end that is not current
        }
    }
    m_defaultRight = current.isEmpty() ? liveKey() : current;
    m_defaultLeft = previous.isEmpty() ? m_defaultRight : previous;
    if (other)
        m_followsRollouts = true;
    // The default pair follows the rollouts (a rollback shows what it changed); a pair the user
    // picked stays, as long as both revisions exist.
    QString left = m_followsRollouts || !choice(oldLeft) ? m_defaultLeft : oldLeft;
    QString right = m_followsRollouts || !choice(oldRight) ? m_defaultRight : oldRight;
    m_updating = true;
    rebuildPickers();
    selectKey(m_left, left);
    selectKey(m_right, right);
    m_updating = false;
    refreshDiff();
}

bool DiffTab::setPair(qint64 leftRevision, qint64 rightRevision)
{
    auto keyOf = [this](qint64 number) -> QString {
        if (number == 0)
            return liveKey();
        for (const auto &c : m_choices) {
            if (c.key != liveKey() && c.number == number)
                return c.key;
        }
        return {};
    };
    return setPairByKey(keyOf(leftRevision), keyOf(rightRevision));
}

bool DiffTab::setPairByKey(const QString &leftKey, const QString &rightKey)
{
    if (!choice(leftKey) || !choice(rightKey))
        return false;
    m_followsRollouts = leftKey == m_defaultLeft && rightKey == m_defaultRight;
    m_updating = true;
    selectKey(m_left, leftKey);
    selectKey(m_right, rightKey);
    m_updating = false;
    refreshDiff();
    return true;
}

QString DiffTab::leftKey() const
{
    return m_left->currentData().toString();
}

QString DiffTab::rightKey() const
{
    return m_right->currentData().toString();
}

QString DiffTab::leftTitle() const
{
    const Choice *c = choice(leftKey());
    return c ? c->title : QString();
}

QString DiffTab::rightTitle() const
{
    const Choice *c = choice(rightKey());
    return c ? c->title : QString();
}

std::shared_ptr<const kube::Json> DiffTab::leftTemplate() const
{
    const Choice *c = choice(leftKey());
    return c ? c->podTemplate : nullptr;
}

std::shared_ptr<const kube::Json> DiffTab::rightTemplate() const
{
    const Choice *c = choice(rightKey());
    return c ? c->podTemplate : nullptr;
}

void DiffTab::rebuildPickers()
{
    for (QComboBox *box : {m_left, m_right}) {
        const QSignalBlocker blocker(box);
        // Items are only rewritten when they differ, so an open popup is not disturbed.
        bool same = box->count() == int(m_choices.size());
        for (int i = 0; same && i < box->count(); ++i)
            same = box->itemData(i).toString() == m_choices[size_t(i)].key &&
                   box->itemText(i) == m_choices[size_t(i)].label;
        if (same)
            continue;
        box->clear();
        for (const auto &c : m_choices) {
            box->addItem(c.label, c.key);
            box->setItemData(box->count() - 1, c.label, Qt::ToolTipRole);
        }
    }
}

void DiffTab::refreshDiff()
{
    if (m_updating)
        return;
    const Choice *l = choice(leftKey());
    const Choice *r = choice(rightKey());
    if (!l || !r) {
        if (m_shownLeft || m_shownRight)
            m_view->clear();
        m_shownLeft.reset();
        m_shownRight.reset();
        emit pairChanged();
        return;
    }
    if (l->podTemplate == m_shownLeft && r->podTemplate == m_shownRight && l->title == m_shownLeftTitle &&
        r->title == m_shownRightTitle)
        return;
    m_shownLeft = l->podTemplate;
    m_shownRight = r->podTemplate;
    m_shownLeftTitle = l->title;
    m_shownRightTitle = r->title;
    static const kube::Json empty = kube::Json::object();
    m_view->setTemplates(l->title, l->podTemplate ? *l->podTemplate : empty, r->title,
                         r->podTemplate ? *r->podTemplate : empty);
    emit pairChanged();
}

const DiffTab::Choice *DiffTab::choice(const QString &key) const
{
    for (const auto &c : m_choices) {
        if (c.key == key)
            return &c;
    }
    return nullptr;
}

void DiffTab::selectKey(QComboBox *box, const QString &key)
{
    const int i = box->findData(key);
    if (i >= 0)
        box->setCurrentIndex(i);
}

} // namespace gui
