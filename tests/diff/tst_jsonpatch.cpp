// JSON Patch: apply(a, diff(a, b)) == b over generated documents, and bad patches come back as
// ApiStatus values naming the failing operation.

#include "models/diff/jsonpatch.h"

#include <QTest>

#include <random>

using namespace diff;
using kube::Json;

namespace {

// Key pool with the characters JSON Pointer must escape, the empty key and non-ASCII.
const char *const keys[] = {"a", "b", "name", "a/b", "~", "~1", "/", "x~0/y", "", "größe", "0", "-", "spec"};

class Generator
{
public:
    explicit Generator(unsigned seed) : m_rng(seed) {}

    Json value(int depth)
    {
        // Structures are likelier than scalars below the leaves so documents nest.
        const int kind = pick(depth <= 0 ? 5 : 9);
        switch (kind) {
        case 0:
            return nullptr;
        case 1:
            return pick(2) == 1;
        case 2:
            return pick(1000) - 500;
        case 3:
            return pick(1000) / 8.0;
        case 4:
            return std::string(keys[pick(std::size(keys))]) + std::to_string(pick(5));
        case 5:
        case 6: {
            Json obj = Json::object();
            const int n = pick(5);
            for (int i = 0; i < n; ++i)
                obj[keys[pick(std::size(keys))]] = value(depth - 1);
            return obj;
        }
        default: {
            Json arr = Json::array();
            const int n = pick(5);
            for (int i = 0; i < n; ++i)
                arr.push_back(value(depth - 1));
            return arr;
        }
        }
    }

    // A variant of v with some values replaced, keys added or removed, arrays resized.
    Json mutate(const Json &v, int depth)
    {
        if (pick(10) == 0)
            return value(depth);
        if (v.is_object()) {
            Json out = v;
            for (auto it = v.begin(); it != v.end(); ++it) {
                const int roll = pick(6);
                if (roll == 0)
                    out.erase(it.key());
                else if (roll == 1)
                    out[it.key()] = mutate(it.value(), depth - 1);
            }
            if (pick(3) == 0)
                out[keys[pick(std::size(keys))]] = value(depth - 1);
            return out;
        }
        if (v.is_array()) {
            Json out = Json::array();
            for (const auto &item : v) {
                const int roll = pick(6);
                if (roll == 0)
                    continue;
                out.push_back(roll == 1 ? mutate(item, depth - 1) : item);
                if (pick(6) == 0)
                    out.push_back(value(depth - 1));
            }
            return out;
        }
        return pick(2) ? value(0) : v;
    }

private:
    int pick(std::size_t n) { return std::uniform_int_distribution<int>(0, int(n) - 1)(m_rng); }
    std::mt19937 m_rng;
};

} // namespace

class TestJsonPatch : public QObject
{
    Q_OBJECT

private slots:
    void patchOfDiffReproducesTarget_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<bool>("related");
        QTest::newRow("mutated documents share most structure") << 7 << true;
        QTest::newRow("independent documents share little") << 8 << false;
    }
    void patchOfDiffReproducesTarget()
    {
        QFETCH(int, seed);
        QFETCH(bool, related);
        Generator gen(seed);
        for (int round = 0; round < 300; ++round) {
            const Json a = gen.value(4);
            const Json b = related ? gen.mutate(a, 4) : gen.value(4);
            const Json patch = jsonPatch(a, b);
            const auto applied = applyJsonPatch(a, patch);
            QVERIFY2(applied.ok(), qPrintable(QString::fromStdString(
                                       applied.ok() ? std::string() : applied.error().message)));
            QVERIFY2(*applied == b,
                     qPrintable(QStringLiteral("round %1\na=%2\nb=%3\npatch=%4\ngot=%5")
                                    .arg(round)
                                    .arg(QString::fromStdString(a.dump()), QString::fromStdString(b.dump()),
                                         QString::fromStdString(patch.dump()),
                                         QString::fromStdString(applied->dump()))));
            if (a == b)
                QVERIFY(patch.empty());
        }
    }

    void escapesPointerTokens()
    {
        const Json a = {{"metadata", {{"annotations", {{"example.com/a~b", "1"}}}}}};
        const Json b = {{"metadata", {{"annotations", {{"example.com/a~b", "2"}}}}}};
        const Json patch = jsonPatch(a, b);
        QCOMPARE(int(patch.size()), 1);
        QCOMPARE(QString::fromStdString(patch[0]["path"].get<std::string>()),
                 QStringLiteral("/metadata/annotations/example.com~1a~0b"));
    }

    void reportsBadPatches_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("a patch that is not an array") << R"({"op":"add"})"
                                                      << "must be an array";
        QTest::newRow("an operation that is not an object") << R"([42])"
                                                            << "operation 0: an operation must be an object";
        QTest::newRow("an unknown op") << R"([{"op":"frobnicate","path":"/a"}])"
                                       << "operation 0 (frobnicate \"/a\")";
        QTest::newRow("removing a missing key") << R"([{"op":"remove","path":"/missing"}])"
                                                << "key 'missing' not found";
        QTest::newRow("a failing test op names the second operation")
            << R"([{"op":"replace","path":"/a","value":2},{"op":"test","path":"/a","value":1}])"
            << "operation 1 (test \"/a\")";
        QTest::newRow("an add without value") << R"([{"op":"add","path":"/x"}])"
                                              << "must have member 'value'";
        QTest::newRow("an array index out of range") << R"([{"op":"replace","path":"/list/9","value":1}])"
                                                     << "operation 0 (replace \"/list/9\")";
        QTest::newRow("an add under a number") << R"([{"op":"add","path":"/a/-","value":1}])"
                                               << "operation 0 (add \"/a/-\"): the parent \"/a\" is a number";
        QTest::newRow("a copy under a number") << R"([{"op":"copy","from":"/list","path":"/a/x"}])"
                                               << "the parent \"/a\" is a number, not an object or an array";
        QTest::newRow("a move under a number") << R"([{"op":"move","from":"/list","path":"/a/0"}])"
                                               << "operation 0 (move \"/a/0\")";
        QTest::newRow("a malformed pointer") << R"([{"op":"add","path":"a","value":1}])"
                                             << "operation 0 (add \"a\")";
    }
    void reportsBadPatches()
    {
        QFETCH(QString, patch);
        QFETCH(QString, messagePart);
        const Json doc = {{"a", 1}, {"list", {1, 2}}};
        const auto result = applyJsonPatch(doc, Json::parse(patch.toStdString()));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, 400);
        const QString message = QString::fromStdString(result.error().message);
        QVERIFY2(message.contains(messagePart), qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("json.exception")), qPrintable(message));
    }
};

QTEST_APPLESS_MAIN(TestJsonPatch)
#include "tst_jsonpatch.moc"
