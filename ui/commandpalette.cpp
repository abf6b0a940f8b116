#include "ui/commandpalette.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gui {

QString plainMenuText(QString text)
{
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return text;
}

CommandPalette::CommandPalette(std::vector<PaletteEntry> entries, QWidget *parent)
    : QDialog(parent), m_entries(std::move(entries))
{
    setWindowTitle(tr("Go To"));
    setObjectName(QStringLiteral("commandPalette"));
    m_input = new QLineEdit(this);
    m_input->setObjectName(QStringLiteral("commandPaletteInput"));
    m_input->setPlaceholderText(tr("DaemonSet, node, upgrade or command…"));
    m_input->setClearButtonEnabled(true);
    m_input->installEventFilter(this);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("commandPaletteList"));
    m_list->setUniformItemSizes(true);
    m_list->setTabKeyNavigation(false);
    m_list->setFocusPolicy(Qt::NoFocus); // the text keeps the focus; clicks still choose
    auto *hint = new QLabel(tr("↑↓ choose · Return go · Esc close"), this);
    hint->setForegroundRole(QPalette::PlaceholderText);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_input);
    layout->addWidget(m_list, 1);
    layout->addWidget(hint);
    const int em = fontMetrics().averageCharWidth();
    resize(em * 80, fontMetrics().height() * 24);

    connect(m_input, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    connect(m_input, &QLineEdit::returnPressed, this, &CommandPalette::runCurrent);
    connect(m_list, &QListWidget::itemActivated, this, &CommandPalette::runCurrent);
    refilter();
}

int CommandPalette::matchRank(const PaletteEntry &entry, const QString &query)
{
    const QString q = query.simplified();
    if (q.isEmpty())
        return 2;
    const QString all = entry.kind + QLatin1Char(' ') + entry.text + QLatin1Char(' ') + entry.detail;
    for (const QString &word : q.split(QLatin1Char(' ')))
        if (!all.contains(word, Qt::CaseInsensitive))
            return -1;
    if (entry.text.startsWith(q, Qt::CaseInsensitive))
        return 0;
    return entry.text.contains(q, Qt::CaseInsensitive) ? 1 : 2;
}

void CommandPalette::refilter()
{
    const QString query = m_input->text();
    std::vector<std::pair<int, int>> ranked; // (rank, index)
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i)
        if (const int rank = matchRank(m_entries[i], query); rank >= 0)
            ranked.emplace_back(rank, i);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    m_list->clear();
    m_shown.clear();
    for (const auto &[rank, i] : ranked) {
        const PaletteEntry &e = m_entries[i];
        QString line = e.kind + QStringLiteral(":  ") + e.text;
        if (!e.detail.isEmpty())
            line += QStringLiteral("   — ") + e.detail;
        m_list->addItem(line);
        m_shown.push_back(i);
    }
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
}

QStringList CommandPalette::shownEntries() const
{
    QStringList out;
    for (int i : m_shown)
        out << m_entries[i].kind + QStringLiteral(": ") + m_entries[i].text;
    return out;
}

void CommandPalette::runCurrent()
{
    const int row = m_list->currentRow();
    if (row < 0 || row >= static_cast<int>(m_shown.size()))
        return;
    // Closed first: the entry may open a dialog of its own.
    const std::function<void()> run = m_entries[m_shown[row]].run;
    accept();
    if (run)
        run();
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        // The text keeps the focus; the list's current row moves.
        const int page =
            std::max(1, m_list->viewport()->height() / std::max(1, m_list->sizeHintForRow(0)) - 1);
        int step = 0;
        switch (key->key()) {
        case Qt::Key_Up:
            step = -1;
            break;
        case Qt::Key_Down:
            step = 1;
            break;
        case Qt::Key_PageUp:
            step = -page;
            break;
        case Qt::Key_PageDown:
            step = page;
            break;
        default:
            break;
        }
        if (step != 0) {
            if (m_list->count() > 0)
                m_list->setCurrentRow(std::clamp(m_list->currentRow() + step, 0, m_list->count() - 1));
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

ShortcutSheet::ShortcutSheet(const QMenuBar *menus, const QList<QPair<QString, QString>> &extraKeys,
                             QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    setObjectName(QStringLiteral("shortcutSheet"));
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("shortcutTree"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Keys"), tr("Command")});
    m_tree->setRootIsDecorated(false);
    m_tree->setTabKeyNavigation(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);

    std::function<void(const QMenu *, QTreeWidgetItem *)> addMenu = [&](const QMenu *menu,
                                                                        QTreeWidgetItem *group) {
        for (const QAction *a : menu->actions()) {
            if (a->menu()) {
                addMenu(a->menu(), group);
                continue;
            }
            if (a->isSeparator() || a->shortcuts().isEmpty())
                continue;
            QStringList keys;
            for (const QKeySequence &k : a->shortcuts())
                keys << k.toString(QKeySequence::NativeText);
            new QTreeWidgetItem(group, {keys.join(QStringLiteral("  ·  ")), plainMenuText(a->text())});
        }
    };
    auto addGroup = [this](const QString &title) {
        auto *group = new QTreeWidgetItem(m_tree, {plainMenuText(title)});
        QFont bold = group->font(0);
        bold.setBold(true);
        group->setFont(0, bold);
        group->setFirstColumnSpanned(true);
        group->setFlags(Qt::ItemIsEnabled);
        return group;
    };
    if (menus)
        for (const QAction *top : menus->actions())
            if (top->menu()) {
                QTreeWidgetItem *group = addGroup(top->text());
                addMenu(top->menu(), group);
                if (group->childCount() == 0)
                    delete group;
            }
    if (!extraKeys.isEmpty()) {
        QTreeWidgetItem *group = addGroup(tr("Anywhere"));
        for (const auto &[keys, what] : extraKeys)
            new QTreeWidgetItem(group, {keys, what});
    }
    m_tree->expandAll();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);
    resize(fontMetrics().averageCharWidth() * 96, fontMetrics().height() * 34);
}

QStringList ShortcutSheet::lines() const
{
    QStringList out;
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        const QTreeWidgetItem *group = m_tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i)
            out << group->child(i)->text(0) + QLatin1Char('\t') + group->child(i)->text(1);
    }
    return out;
}

} // namespace gui
