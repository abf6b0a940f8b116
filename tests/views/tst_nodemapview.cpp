// The painted node map: 5,000 tiles render with their revision colours (also at device pixel
// ratio 2), keyboard navigation moves the current tile, Enter activates it, tooltips name the
// pod, incremental updates repaint, filtering and highlighting show in the picture.

#include "models/itemmodels/nodemapfilter.h"
#include "models/itemmodels/nodemapmodel.h"
#include "ui/nodemaplegend.h"
#include "ui/nodemapview.h"
#include "ui/revisionpalette.h"

#include <QDir>
#include <QPainter>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

using gui::NodeMapView;
using gui::RevisionPalette;
using models::NodeMapFilter;
using models::NodeMapModel;
using models::NodeTile;
using PodState = NodeTile::PodState;
using namespace Qt::Literals::StringLiterals;

namespace {

// node-i in zone (i / 1000), revision 1 + i % 3; every 97th pod not ready, every 89th
// terminating, every 83rd node without pod. The first nodes are all ready.
std::vector<NodeTile> cluster(int n)
{
    std::vector<NodeTile> tiles;
    tiles.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        NodeTile t;
        t.node = QStringLiteral("node-%1").arg(i);
        t.zone = QStringLiteral("zone-%1").arg(i / 1000);
        t.labels = {QStringLiteral("topology.kubernetes.io/zone=") + t.zone};
        t.revisionNumber = 1 + i % 3;
        t.revisionHash = QStringLiteral("h%1").arg(t.revisionNumber);
        t.podName = QStringLiteral("agent-%1").arg(i);
        t.podState = PodState::Ready;
        t.podCreatedMs = 1'000'000;
        t.nodeConditions = QStringLiteral("Ready");
        if (i > 10 && i % 97 == 0)
            t.podState = PodState::NotReady;
        if (i > 10 && i % 89 == 0)
            t.podState = PodState::Terminating;
        if (i > 10 && i % 83 == 0) {
            t.podState = PodState::Missing;
            t.revisionNumber = -1;
            t.podName.clear();
        }
        tiles.push_back(t);
    }
    return tiles;
}

// Saves a picture for a visual review when DAEMONSCOPE_SCREENSHOTS names a directory.
void maybeSave(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("DAEMONSCOPE_SCREENSHOTS");
    if (!dir.isEmpty())
        w->grab().save(QDir(dir).filePath(name));
}

QColor pixelAt(QWidget *viewport, const QPoint &p)
{
    return viewport->grab().toImage().pixelColor(p);
}

} // namespace

class TestNodeMapView : public QObject
{
    Q_OBJECT

private:
    NodeMapModel *m_model = nullptr;
    NodeMapFilter *m_filter = nullptr;
    NodeMapView *m_view = nullptr;
    std::vector<NodeTile> m_tiles;

private slots:
    void init()
    {
        m_model = new NodeMapModel(this);
        m_filter = new NodeMapFilter(this);
        m_filter->setSourceModel(m_model);
        m_tiles = cluster(5000);
        m_model->setTiles(m_tiles);
        m_view = new NodeMapView;
        m_view->setModel(m_filter);
        m_view->resize(900, 600);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view));
    }

    void cleanup()
    {
        delete m_view;
        delete m_filter;
        delete m_model;
    }

    void paintsTilesInTheirRevisionColour_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<qint64>("revision");
        QTest::newRow("the first node runs revision 1") << "node-0" << qint64(1);
        QTest::newRow("the second node runs revision 2") << "node-1" << qint64(2);
        QTest::newRow("the third node runs revision 3") << "node-2" << qint64(3);
    }

    void paintsTilesInTheirRevisionColour()
    {
        QFETCH(QString, node);
        QFETCH(qint64, revision);
        const QRect r = m_view->tileRect(node);
        QVERIFY(!r.isEmpty());
        QCOMPARE(m_view->nodeAt(r.center()), node);
        QCOMPARE(pixelAt(m_view->viewport(), r.center()), RevisionPalette::color(revision));
        maybeSave(m_view, u"views-nodemap.png"_s);
    }

    void scalesWithTheDevicePixelRatio()
    {
        const QRect r = m_view->tileRect(u"node-1"_s);
        QPixmap pm(m_view->viewport()->size() * 2);
        pm.setDevicePixelRatio(2);
        pm.fill(Qt::transparent);
        m_view->viewport()->render(&pm);
        const QImage img = pm.toImage();
        QCOMPARE(img.pixelColor(r.center() * 2), RevisionPalette::color(2));
        // The outline stays one logical pixel: two device pixels inside the edge are fill.
        QCOMPARE(img.pixelColor(QPoint(r.left() * 2 + 2, r.center().y() * 2)), RevisionPalette::color(2));
    }

    void groupsByZoneWithCounts()
    {
        const auto zones = m_view->zones();
        QCOMPARE(zones.size(), 5);
        QCOMPARE(zones.first(), qMakePair(u"zone-0"_s, 1000));
        // Legend: pods per revision; nodes without a pod count for none.
        int pods = 0;
        for (const auto &e : m_view->legend()->entries())
            pods += e.count;
        QCOMPARE(static_cast<int>(m_view->legend()->entries().size()), 3);
        const auto withPod = std::count_if(m_tiles.begin(), m_tiles.end(),
                                           [](const NodeTile &t) { return t.revisionNumber >= 0; });
        QCOMPARE(pods, static_cast<int>(withPod));
        QVERIFY(withPod < 5000);
    }

    void keyboardMovesTheCurrentTile_data()
    {
        QTest::addColumn<QList<int>>("keys");
        QTest::addColumn<QString>("expected"); // where the final tile lies relative to node-0

        QTest::newRow("the first arrow selects the first node") << QList<int>{Qt::Key_Down} << "same";
        QTest::newRow("right moves to the next node") << QList<int>{Qt::Key_Right, Qt::Key_Right} << "right";
        QTest::newRow("down moves to the tile below") << QList<int>{Qt::Key_Right, Qt::Key_Down} << "below";
        QTest::newRow("down then up comes back")
            << QList<int>{Qt::Key_Right, Qt::Key_Down, Qt::Key_Up} << "same";
        QTest::newRow("left at the first tile stays there")
            << QList<int>{Qt::Key_Right, Qt::Key_Left, Qt::Key_Left} << "same";
        QTest::newRow("end goes to the last node") << QList<int>{Qt::Key_End} << "last";
        QTest::newRow("down from the last line of a zone enters the next zone")
            << QList<int>{Qt::Key_Right,    Qt::Key_PageDown, Qt::Key_PageDown,
                          Qt::Key_PageDown, Qt::Key_PageDown, Qt::Key_PageDown}
            << "next zone";
    }

    void keyboardMovesTheCurrentTile()
    {
        QFETCH(QList<int>, keys);
        QFETCH(QString, expected);
        QSignalSpy spy(m_view, &NodeMapView::currentNodeChanged);
        m_view->setFocus();
        for (int k : keys)
            QTest::keyClick(m_view, static_cast<Qt::Key>(k));
        QVERIFY(spy.count() >= 1);
        const QString current = m_view->currentNode();
        QCOMPARE(spy.last().first().toString(), current);
        // The current tile is always scrolled into view.
        const QRect now = m_view->tileRect(current);
        QVERIFY(m_view->viewport()->rect().contains(now));
        const QRect start = m_view->tileRect(u"node-0"_s);
        if (expected == u"right") {
            QCOMPARE(current, u"node-1"_s);
            QCOMPARE(now.top(), start.top());
            QVERIFY(now.left() > start.left());
        } else if (expected == u"below") {
            QVERIFY(now.top() > start.top());
            QCOMPARE(now.left(), start.left());
        } else if (expected == u"same") {
            QCOMPARE(current, u"node-0"_s);
        } else if (expected == u"last") {
            QCOMPARE(current, u"node-4999"_s);
        } else if (expected == u"next zone") {
            QVERIFY2(current.mid(5).toInt() >= 1000, qPrintable(current));
            QCOMPARE(now.left(), start.left());
        }
    }

    void enterActivatesTheCurrentNode()
    {
        QSignalSpy activated(m_view, &NodeMapView::nodeActivated);
        m_view->setFocus();
        QTest::keyClick(m_view, Qt::Key_Return);
        QCOMPARE(activated.count(), 0); // nothing current yet
        m_view->setCurrentNode(u"node-42"_s);
        QTest::keyClick(m_view, Qt::Key_Return);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toString(), u"node-42"_s);
        QVERIFY(m_view->accessibleDescription().contains(u"node-42"_s));
    }

    void clickAndDoubleClickUseTheTileUnderTheMouse()
    {
        QSignalSpy activated(m_view, &NodeMapView::nodeActivated);
        const QRect r = m_view->tileRect(u"node-5"_s);
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(m_view->currentNode(), u"node-5"_s);
        QTest::mouseDClick(m_view->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(activated.count(), 1);
    }

    void tooltipNamesThePod()
    {
        m_model->setReferenceTime(1'000'000 + 3 * 3600 * 1000);
        const QString tip = m_view->tooltipFor(u"node-4"_s);
        QVERIFY2(tip.contains(u"agent-4"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"h2"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"3h"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"Ready"_s), qPrintable(tip));
        QVERIFY(m_view->tooltipFor(u"no-such-node"_s).isEmpty());
    }

    void repaintsAnIncrementalUpdate()
    {
        const QRect r = m_view->tileRect(u"node-0"_s);
        QCOMPARE(pixelAt(m_view->viewport(), r.center()), RevisionPalette::color(1));
        m_tiles[0].revisionNumber = 7;
        m_model->setTiles(m_tiles);
        QTRY_COMPARE(pixelAt(m_view->viewport(), r.center()), RevisionPalette::color(7));
        QCOMPARE(m_view->tileRect(u"node-0"_s), r); // same place: no relayout moved it
    }

    void filteringShrinksTheMap()
    {
        m_filter->setFilterText(u"node-1"_s); // node-1, node-10..19, node-100..199, node-1000..1999
        QTRY_COMPARE(m_view->zones().size(), 2);
        QVERIFY(!m_view->tileRect(u"node-1999"_s).isEmpty());
        QVERIFY(m_view->tileRect(u"node-2"_s).isEmpty());
        m_filter->setFilterText(u"nothing-matches"_s);
        QTRY_COMPARE(m_view->zones().size(), 0);
        maybeSave(m_view, u"views-nodemap-empty.png"_s);
    }

    void highlightDimsOtherRevisions()
    {
        const QRect one = m_view->tileRect(u"node-0"_s);
        const QRect two = m_view->tileRect(u"node-1"_s);
        QSignalSpy spy(m_view, &NodeMapView::highlightedRevisionChanged);
        m_view->setHighlightedRevision(2);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(pixelAt(m_view->viewport(), two.center()), RevisionPalette::color(2));
        QVERIFY(pixelAt(m_view->viewport(), one.center()) != RevisionPalette::color(1));
        maybeSave(m_view, u"views-nodemap-highlight.png"_s);
        m_view->setHighlightedRevision(-1);
        QCOMPARE(pixelAt(m_view->viewport(), one.center()), RevisionPalette::color(1));
        // The filter's highlight (a timeline selection) shows the same way.
        m_filter->setHighlightedRevision(3);
        QTRY_VERIFY(pixelAt(m_view->viewport(), one.center()) != RevisionPalette::color(1));
    }

    void followsADarkPalette()
    {
        QPalette dark = m_view->palette();
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Window, QColor(0x30, 0x30, 0x30));
        dark.setColor(QPalette::Text, Qt::white);
        dark.setColor(QPalette::WindowText, Qt::white);
        m_view->setPalette(dark);
        const QImage img = m_view->viewport()->grab().toImage();
        QCOMPARE(img.pixelColor(QPoint(2, 2)), QColor(0x20, 0x20, 0x20));
        QCOMPARE(img.pixelColor(m_view->tileRect(u"node-0"_s).center()), RevisionPalette::color(1));
        maybeSave(m_view, u"views-nodemap-dark.png"_s);
    }

    void fewNodesInABigPaneAreCardsWithTheirNames()
    {
        m_model->setTiles(cluster(42));
        m_view->resize(1600, 900);
        QTRY_VERIFY(m_view->labelledTiles());
        const QRect r = m_view->tileRect(u"node-41"_s);
        QVERIFY(r.width() >= m_view->fontMetrics().horizontalAdvance(u"node-41"_s));
        QVERIFY(r.height() > m_view->fontMetrics().height());
        QCOMPARE(m_view->nodeAt(r.center()), u"node-41"_s);
        QCOMPARE(m_view->nodeAt(QPoint(r.left() + 2, r.top() + 2)), u"node-41"_s);
        QCOMPARE(m_view->verticalScrollBar()->maximum(), 0); // everything in view
        // The name is painted on the card: the card holds pixels other than its fill and outline.
        const QImage img = m_view->viewport()->grab().toImage();
        const QColor fill = RevisionPalette::color(3); // node-41 runs revision 1 + 41 % 3
        int ink = 0;
        for (int x = r.left() + 3; x < r.right() - 3; ++x) {
            for (int y = r.top() + 3; y < r.bottom() - 3; ++y)
                ink += img.pixelColor(x, y) != fill;
        }
        QVERIFY2(ink > 10, qPrintable(QString::number(ink)));
        maybeSave(m_view, u"views-nodemap-cards.png"_s);

        // A small pane: squares again (scrolling), at the tile size.
        m_view->resize(300, 150);
        QTRY_VERIFY(!m_view->labelledTiles());
        QCOMPARE(m_view->cellSize(), QSize(m_view->tileSize(), m_view->tileSize()));
        QCOMPARE(m_view->nodeAt(m_view->tileRect(u"node-3"_s).center()), u"node-3"_s);
    }

    void manyNodesKeepSquaresThatGrowOnlyWhenAllFit()
    {
        // 5,000 nodes in 900 x 600: the tile size, no names.
        QVERIFY(!m_view->labelledTiles());
        QCOMPARE(m_view->cellSize(), QSize(m_view->tileSize(), m_view->tileSize()));
        // 2,500 nodes in a big pane: too many for cards, and the squares grow while all fit.
        m_model->setTiles(cluster(2500));
        m_view->resize(1900, 1000);
        QTRY_VERIFY(m_view->cellSize().width() > m_view->tileSize());
        QVERIFY(!m_view->labelledTiles());
        QCOMPARE(m_view->cellSize().width(), m_view->cellSize().height());
        QCOMPARE(m_view->verticalScrollBar()->maximum(), 0);
        const QRect r = m_view->tileRect(u"node-2499"_s);
        QCOMPARE(m_view->nodeAt(r.center()), u"node-2499"_s);
    }
};

QTEST_MAIN(TestNodeMapView)
#include "tst_nodemapview.moc"
