// Node map at cluster scale, offscreen: 5,000 tiles through NodeMapModel -> NodeMapFilter ->
// NodeMapView. Prints the time to the first painted frame and the time of an incremental
// update of 500 tiles (model merge, proxy, view cache refresh) followed by a full repaint.
//
//   build/tests/bench/bench_nodemap [--nodes N] [--changed N] [--rounds N] [--screenshot FILE]

#include "models/itemmodels/nodemapfilter.h"
#include "models/itemmodels/nodemapmodel.h"
#include "ui/nodemapview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTextStream>

#include <algorithm>
#include <vector>

using models::NodeTile;

namespace {

std::vector<NodeTile> cluster(int n)
{
    std::vector<NodeTile> tiles;
    tiles.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        NodeTile t;
        t.node = QStringLiteral("ip-10-0-%1-%2.ec2.internal").arg(i / 250).arg(i % 250);
        t.zone = QStringLiteral("eu-west-1%1").arg(QChar(u'a' + i % 3));
        t.labels = {QStringLiteral("topology.kubernetes.io/zone=") + t.zone,
                    QStringLiteral("node.kubernetes.io/instance-type=m5.large")};
        t.revisionNumber = 4;
        t.revisionHash = QStringLiteral("6d4b7c9f8");
        t.podName = QStringLiteral("agent-%1").arg(i, 5, 36, QChar(u'0'));
        t.podState = NodeTile::PodState::Ready;
        t.podCreatedMs = 1'700'000'000'000;
        t.nodeConditions = QStringLiteral("Ready");
        tiles.push_back(std::move(t));
    }
    return tiles;
}

// Paints the whole viewport now, as the next frame would.
void paintFrame(gui::NodeMapView &view)
{
    view.viewport()->repaint();
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), QStringLiteral("Nodes (5000)."),
                                         QStringLiteral("n"), QStringLiteral("5000"));
    const QCommandLineOption changedOption(QStringLiteral("changed"),
                                           QStringLiteral("Tiles per update (500)."), QStringLiteral("n"),
                                           QStringLiteral("500"));
    const QCommandLineOption roundsOption(QStringLiteral("rounds"), QStringLiteral("Updates measured (50)."),
                                          QStringLiteral("n"), QStringLiteral("50"));
    const QCommandLineOption shotOption(
        QStringLiteral("screenshot"), QStringLiteral("Save the last frame as PNG."), QStringLiteral("file"));
    parser.addOptions({nodesOption, changedOption, roundsOption, shotOption});
    parser.process(app);
    const int nodes = qMax(1, parser.value(nodesOption).toInt());
    const int changed = qBound(1, parser.value(changedOption).toInt(), nodes);
    const int rounds = qMax(1, parser.value(roundsOption).toInt());

    QTextStream out(stdout);
    auto tiles = cluster(nodes);

    models::NodeMapModel model;
    models::NodeMapFilter filter;
    filter.setSourceModel(&model);
    gui::NodeMapView view;
    view.resize(1280, 900);
    view.setModel(&filter);
    view.show();
    QCoreApplication::processEvents();

    QElapsedTimer timer;
    timer.start();
    model.setTiles(tiles);
    const qint64 loadNs = timer.nsecsElapsed();
    paintFrame(view);
    const qint64 firstPaintNs = timer.nsecsElapsed();

    // Each round moves `changed` nodes (spread over the cluster) to the next revision, as a
    // rolling update does, then paints the frame.
    std::vector<qint64> updates;
    std::vector<qint64> totals;
    const int stride = qMax(1, nodes / changed);
    for (int round = 0; round < rounds; ++round) {
        for (int k = 0; k < changed; ++k) {
            auto &t = tiles[static_cast<size_t>((k * stride + round) % nodes)];
            t.revisionNumber += 1;
            t.podState = round % 2 ? NodeTile::PodState::Ready : NodeTile::PodState::NotReady;
        }
        timer.restart();
        model.setTiles(tiles);
        QCoreApplication::processEvents(); // queued view relayout
        const qint64 updateNs = timer.nsecsElapsed();
        paintFrame(view);
        totals.push_back(timer.nsecsElapsed());
        updates.push_back(updateNs);
    }
    std::sort(updates.begin(), updates.end());
    std::sort(totals.begin(), totals.end());
    auto ms = [](qint64 ns) { return QString::number(ns / 1e6, 'f', 2); };
    out << "nodes: " << nodes << ", viewport 1280x900\n";
    out << "first load (setTiles): " << ms(loadNs) << " ms\n";
    out << "time to first paint (load + paint): " << ms(firstPaintNs) << " ms\n";
    out << "update of " << changed
        << " tiles (model + proxy + view cache), median: " << ms(updates[updates.size() / 2])
        << " ms, max: " << ms(updates.back()) << " ms\n";
    out << "update of " << changed << " tiles + repaint, median: " << ms(totals[totals.size() / 2])
        << " ms, max: " << ms(totals.back()) << " ms (" << rounds << " rounds)\n";
    if (parser.isSet(shotOption))
        view.grab().save(parser.value(shotOption));
    return 0;
}
