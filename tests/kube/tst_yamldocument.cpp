// parseYamlDocuments()/loadYamlFile() and loadManifests(): kubectl's scalar rules, positions of
// every node, and error messages that name file:line:column.

#include "models/kube/manifest.h"
#include "models/kube/yamldocument.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using kube::Json;
using kube::SourcePos;

// Readable QCOMPARE failures.
namespace nlohmann {
inline char *toString(const json &value)
{
    return qstrdup(value.dump().c_str());
}
} // namespace nlohmann
namespace kube {
inline char *toString(const SourcePos &p)
{
    return qstrdup((std::to_string(p.line) + ":" + std::to_string(p.column)).c_str());
}
} // namespace kube

namespace {

QByteArray bytes(const std::string &s)
{
    return QByteArray::fromStdString(s);
}

std::string errorOf(const std::string &text, const std::string &file)
{
    auto docs = kube::parseYamlDocuments(text, file);
    return docs ? std::string("(no error)") : docs.error().message;
}

void writeFile(const std::string &path, const std::string &content)
{
    std::ofstream out(path, std::ios::binary);
    out << content;
}

// How two loadings of manifests differ ("" when they do not): error or objects, files,
// positions, pointers and documents.
std::string difference(const kube::Result<std::vector<kube::Manifest>> &actual,
                       const kube::Result<std::vector<kube::Manifest>> &expected)
{
    if (actual.ok() != expected.ok())
        return actual.ok() ? "loaded, expected " + expected.error().message : actual.error().message;
    if (!actual.ok())
        return actual.error().message == expected.error().message &&
                       actual.error().code == expected.error().code
                   ? ""
                   : actual.error().message + " instead of " + expected.error().message;
    if (actual->size() != expected->size())
        return std::to_string(actual->size()) + " manifests instead of " + std::to_string(expected->size());
    for (std::size_t i = 0; i < actual->size(); ++i) {
        const kube::Manifest &a = (*actual)[i];
        const kube::Manifest &e = (*expected)[i];
        const auto pos = [](SourcePos p) { return std::to_string(p.line) + ":" + std::to_string(p.column); };
        if (a.object != e.object || a.file != e.file || !(a.pos == e.pos) || a.pointer != e.pointer ||
            a.document != e.document)
            return "manifest " + std::to_string(i) + ": " + a.file + " " + pos(a.pos) + " " + a.pointer +
                   " " + std::to_string(a.document) + " " + a.object.dump() + " instead of " + e.file + " " +
                   pos(e.pos) + " " + e.pointer + " " + std::to_string(e.document) + " " + e.object.dump();
    }
    return {};
}

} // namespace

class TestYamlDocument : public QObject
{
    Q_OBJECT

private slots:
    void readsScalarsLikeKubectl_data();
    void readsScalarsLikeKubectl();
    void turnsScalarKeysIntoStrings();
    void recordsPositions();
    void recordsPositionsInJson();
    void reportsErrorsWithPositions_data();
    void reportsErrorsWithPositions();
    void refusesTokensThatCannotStartADocument_data();
    void refusesTokensThatCannotStartADocument();
    void boundsResourceUse_data();
    void boundsResourceUse();
    void reportsFileProblems();
    void readsFiles();
    void handlesFiveMegabyteStrings_data();
    void handlesFiveMegabyteStrings();
    void splitsStreamsAndSkipsEmptyDocuments();
    void resolvesAnchorsAliasesAndMerges();

    void loadsManifests();
    void flattensListKinds();
    void rejectsIncompleteManifests_data();
    void rejectsIncompleteManifests();
    void loadsManifestFiles();
    void loadsManifestsAsFromEveryPosition_data();
    void loadsManifestsAsFromEveryPosition();
};

void TestYamlDocument::readsScalarsLikeKubectl_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QByteArray>("json");

    const auto row = [](const char *name, const char *yaml, const char *json) {
        QTest::newRow(name) << QByteArray(yaml) << QByteArray(json);
    };
    row("a plain integer is a number", "42", "42");
    row("a negative integer is a number", "-7", "-7");
    row("a plus sign is allowed", "+12", "12");
    row("a leading zero means octal as in go-yaml", "0644", "420");
    row("0o is octal", "0o17", "15");
    row("0x is hexadecimal", "0x1F", "31");
    row("0b is binary", "0b101", "5");
    row("underscores separate digits", "1_000", "1000");
    row("the largest int64 stays an integer", "9223372036854775807", "9223372036854775807");
    row("a value above int64 becomes uint64", "18446744073709551615", "18446744073709551615");
    row("a value above uint64 becomes a double", "99999999999999999999", "1e20");
    row("a decimal is a float", "1.5", "1.5");
    row("an exponent is a float", "1e3", "1000.0");
    row("a leading dot is a float", ".5", "0.5");
    row("a float overflowing a double stays text", "1e400", "\"1e400\"");
    row("true is a boolean", "true", "true");
    row("False is a boolean", "False", "false");
    row("yes is a YAML 1.1 boolean", "yes", "true");
    row("On is a YAML 1.1 boolean", "On", "true");
    row("NO is a YAML 1.1 boolean", "NO", "false");
    row("off is a YAML 1.1 boolean", "off", "false");
    row("y is a YAML 1.1 boolean", "y", "true");
    row("mixed-case tRUE is text", "tRUE", "\"tRUE\"");
    row("null is null", "null", "null");
    row("a tilde is null", "~", "null");
    row("an empty value is null", "", "null");
    row("a single-quoted boolean is text", "'true'", "\"true\"");
    row("a double-quoted number is text", "\"1\"", "\"1\"");
    row("a double-quoted null is text", "\"null\"", "\"null\"");
    row("a literal block is text", "|\n  x\n  y\n", "\"x\\ny\\n\"");
    row("a folded block is text", ">-\n  x\n  y\n", "\"x y\"");
    row("a timestamp stays text", "2024-05-01T10:00:00Z", "\"2024-05-01T10:00:00Z\"");
    row("a date stays text", "2024-05-01", "\"2024-05-01\"");
    row("a sexagesimal number stays text", "1:20", "\"1:20\"");
    row("an image reference is text", "nginx:1.26", "\"nginx:1.26\"");
    row("!!str keeps digits as text", "!!str 12", "\"12\"");
    row("!!int reads a quoted number", "!!int \"7\"", "7");
    row("!!float turns an integer into a double", "!!float 1", "1.0");
    row("an application tag keeps the text", "!custom 12", "\"12\"");
    row("double-quoted escapes are decoded", "\"a\\tb\\u00e9\\U0001F600\\x41\\/\"",
        "\"a\\tb\\u00e9\\ud83d\\ude00A/\"");
    row("the escapes \\N and \\_ decode to their characters", "\"\\N\\_\"", "\"\\u0085\\u00a0\"");
    row("a flow map with plain scalars", "{a: 1, b: [yes, '2']}", "{\"a\":1,\"b\":[true,\"2\"]}");
}

void TestYamlDocument::readsScalarsLikeKubectl()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QByteArray, json);
    auto docs = kube::parseYamlDocuments("v: " + yaml.toStdString(), "s.yaml");
    QVERIFY2(docs.ok(), docs.ok() ? "" : docs.error().message.c_str());
    QCOMPARE(docs->size(), std::size_t(1));
    const Json &v = docs->front().value.at("v");
    const Json expected = Json::parse(json.toStdString());
    QCOMPARE(v, expected);
    QCOMPARE(v.is_number_float(), expected.is_number_float()); // 1000.0 stays a float, 1 an integer
}

void TestYamlDocument::turnsScalarKeysIntoStrings()
{
    auto docs = kube::parseYamlDocuments("1: a\nno: b\n1.5: c\n0x10: d\n'~': e\n\"\": f\n", "k.yaml");
    QVERIFY(docs.ok());
    QCOMPARE(docs->front().value, Json::parse(R"({"1":"a","false":"b","1.5":"c","16":"d","~":"e","":"f"})"));
}

void TestYamlDocument::recordsPositions()
{
    const std::string text = "# a DaemonSet\n"                   // 1
                             "apiVersion: apps/v1\n"             // 2
                             "kind: DaemonSet\n"                 // 3
                             "metadata:\n"                       // 4
                             "  name: web\n"                     // 5
                             "  labels:\n"                       // 6
                             "    app.kubernetes.io/name: web\n" // 7
                             "spec:\n"                           // 8
                             "  template:\n"                     // 9
                             "    spec:\n"                       // 10
                             "      containers:\n"               // 11
                             "      - name: web\n"               // 12
                             "        image: nginx:1.26\n"       // 13
                             "        args:\n"                   // 14
                             "        - -v\n"                    // 15
                             "      nodeSelector:\n";            // 16
    auto docs = kube::parseYamlDocuments(text, "ds.yaml");
    QVERIFY2(docs.ok(), docs.ok() ? "" : docs.error().message.c_str());
    const kube::YamlDocument &doc = docs->front();
    QCOMPARE(doc.file, std::string("ds.yaml"));
    QCOMPARE(doc.posOf(""), (SourcePos{2, 1}));
    QCOMPARE(doc.posOf("/kind"), (SourcePos{3, 7}));
    QCOMPARE(doc.keyPositions.at("/kind"), (SourcePos{3, 1}));
    QCOMPARE(doc.posOf("/metadata/name"), (SourcePos{5, 9}));
    QCOMPARE(doc.keyPositions.at("/metadata/labels/app.kubernetes.io~1name"), (SourcePos{7, 5}));
    QCOMPARE(doc.posOf("/spec/template/spec/containers/0"), (SourcePos{12, 9}));
    QCOMPARE(doc.posOf("/spec/template/spec/containers/0/image"), (SourcePos{13, 16}));
    QCOMPARE(doc.keyPositions.at("/spec/template/spec/containers/0/image"), (SourcePos{13, 9}));
    QCOMPARE(doc.posOf("/spec/template/spec/containers/0/args/0"), (SourcePos{15, 11}));
    // An empty value sits where its key is.
    QCOMPARE(doc.posOf("/spec/template/spec/nodeSelector"), (SourcePos{16, 7}));
    // Unknown pointers fall back to the nearest ancestor.
    QCOMPARE(doc.posOf("/spec/template/spec/containers/0/resources/limits"), (SourcePos{12, 9}));
    QCOMPARE(doc.posOf("/nothing"), (SourcePos{2, 1}));
    QCOMPARE(doc.where("/spec/template/spec/containers/0/image"), std::string("ds.yaml:13:16"));
}

void TestYamlDocument::recordsPositionsInJson()
{
    const std::string text = "{\n"
                             "\t\"kind\": \"Pod\",\n"
                             "\t\"spec\": {\"containers\": [\n"
                             "\t\t{\"name\": \"a\", \"image\": \"b\"}\n"
                             "\t]}\n"
                             "}\n";
    auto docs = kube::parseYamlDocuments(text, "pod.json");
    QVERIFY2(docs.ok(), docs.ok() ? "" : docs.error().message.c_str());
    const kube::YamlDocument &doc = docs->front();
    QCOMPARE(doc.value, Json::parse(text));
    QCOMPARE(doc.posOf("/kind"), (SourcePos{2, 10}));
    QCOMPARE(doc.posOf("/spec/containers/0/image"), (SourcePos{4, 26}));
    QCOMPARE(doc.where("/spec/containers/0/name"), std::string("pod.json:4:12"));
}

void TestYamlDocument::reportsErrorsWithPositions_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QByteArray>("prefix");
    QTest::addColumn<QByteArray>("what");

    const auto row = [](const char *name, const std::string &text, const char *file, const char *prefix,
                        const char *what) {
        QTest::newRow(name) << bytes(text) << QByteArray(file) << QByteArray(prefix) << QByteArray(what);
    };
    row("a tab used for indentation is named", "a:\n\tb: 1\n", "t.yaml",
        "t.yaml:2:1: ", "tabs are not allowed for indentation");
    row("a tab after spaces in the indentation is named", "a:\n  b: 1\n  \tc: 2\n", "t.yaml",
        "t.yaml:3:3: ", "tabs are not allowed for indentation");
    row("a tab before a list item is named", "items:\n- a\n\t- b\n", "t.yaml",
        "t.yaml:3:1: ", "tabs are not allowed for indentation");
    row("truncated JSON points at the end of input", R"({"a": [1,)", "x.json",
        "x.json:1:10: ", "unexpected end of input");
    row("truncated JSON over several lines points at the end of input", "{\n  \"a\": [1,\n", "x.json",
        "x.json:3:1: ", "unexpected end of input");
    row("an unterminated JSON string is named", "{\"a\": \"abc", "x.json",
        "x.json:1:11: ", "missing closing quote");
    row("a missing comma in JSON is named", "{\n  \"a\": 1\n  \"b\": 2\n}\n", "x.json",
        "x.json:3:5: ", "expected '}'");
    row("a mismatched JSON bracket is named", "{\"a\": [1, 2}", "x.json", "x.json:1:12: ", "expected ']'");
    row("a key indented less than its siblings is named", "a:\n  b: 1\n c: 2\n", "i.yaml",
        "i.yaml:3:2: ", "wrong indentation");
    row("a key after a list at the wrong indentation is named", "a:\n  - b\n  c: 1\n", "i.yaml",
        "i.yaml:3:3: ", "wrong indentation");
    row("a second colon on a line is named", "a: b: c\n", "i.yaml", "i.yaml:1:5: ", "illegal map value");
    row("an unclosed flow list is named", "a: [1, 2\nb: 3\n", "i.yaml",
        "i.yaml:2:2: ", "end of sequence flow not found");
    row("a duplicate key names both places", "a: 1\nb: 2\na: 3\n", "d.yaml",
        "d.yaml:3:1: ", "duplicate key \"a\" (first defined at line 1, column 1)");
    row("a nested duplicate key is named", "spec:\n  x: 1\n  y: 2\n  x: 3\n", "d.yaml",
        "d.yaml:4:3: ", "duplicate key \"x\" (first defined at line 2, column 3)");
    row("keys equal after conversion are duplicates", "1: a\n0x1: b\n", "d.yaml",
        "d.yaml:2:1: ", "duplicate key \"1\"");
    row("a duplicate key in the second document is named", "a: 1\n---\nb: 1\nb: 2\n", "d.yaml",
        "d.yaml:4:1: ", "duplicate key \"b\"");
    row("an undefined alias is named", "a: 1\nb: *nope\n", "a.yaml", "a.yaml:2:4: ", "anchor");
    row("an alias that contains itself is refused", "a: &x [1, *x]\n", "a.yaml",
        "a.yaml:1:8: ", "nesting deeper");
    row("infinity cannot become JSON", "a: 1\nb: .inf\n", "f.yaml",
        "f.yaml:2:4: ", "cannot be represented in JSON");
    row("a null key is refused", "a: 1\n~: 2\n", "k.yaml", "k.yaml:2:1: ", "map key is null");
    row("a list as a key is refused", "? [a]\n: 1\n", "k.yaml", "k.yaml:1:3: ", "map key is a list");
    row("a wrong !!int is refused", "a: !!int abc\n", "g.yaml",
        "g.yaml:1:4: ", "cannot read \"abc\" as !!int");
    row("a merge of a scalar is refused", "a:\n  <<: 1\n", "m.yaml", "m.yaml:2:7: ", "merge key");
    row("an unterminated double-quoted string is named", "a: 1\nb: \"abc\nc: 2\n", "q.yaml",
        "q.yaml:2:4: ", "unterminated quoted string: the closing \" is missing");
    row("an unterminated single-quoted string is named", "a: 'it''s\n", "q.yaml",
        "q.yaml:1:4: ", "unterminated quoted string: the closing ' is missing");
    row("a tab before a comment is named", "a: 1\n\t# note\nb: 2\n", "t.yaml",
        "t.yaml:2:1: ", "tabs are not allowed for indentation");
    row("deeply nested flow lists are refused", std::string(100000, '[') + std::string(100000, ']'), "n.yaml",
        "n.yaml:1:", "nesting deeper than");
    row("a byte that is not UTF-8 is named", "a: 1\nb: caf\xE9\n", "u.yaml",
        "u.yaml:2:7: ", "invalid UTF-8 (byte 0xE9)");
    row("a NUL byte is named, not read as UTF-16", std::string("\n\n\0N", 4), "z.yaml",
        "z.yaml:3:1: ", "control character U+0000 is not allowed");
    row("UTF-32 without a byte order mark is refused", std::string("\x01\0\0\0\0\0\0\n", 8), "w.yaml",
        "w.yaml:1:1: ", "control character U+0001 is not allowed");
    row("a tab inside a value is fine, an escape byte is not", "a: \tx\nb: \x1B[31m\n", "e.yaml",
        "e.yaml:2:4: ", "control character U+001B is not allowed");
    row("an unnamed text gets a placeholder name", "a: [", "",
        "<input>:1:", "end of sequence flow not found");
    std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'j'; ++c) {
        const char prev = static_cast<char>(c - 1);
        laughs += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
                  ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
                  "]\n";
    }
    row("a billion laughs is stopped", laughs, "b.yaml", "b.yaml:", "through aliases");
}

void TestYamlDocument::reportsErrorsWithPositions()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, file);
    QFETCH(QByteArray, prefix);
    QFETCH(QByteArray, what);
    const QByteArray message = bytes(errorOf(text.toStdString(), file.toStdString()));
    QVERIFY2(message.startsWith(prefix), message.constData());
    QVERIFY2(message.contains(what), message.constData());
}

// yaml-cpp 0.7's LoadAll() never returns on these (each round adds an empty document); a hang
// here is a CTest timeout.
void TestYamlDocument::refusesTokensThatCannotStartADocument_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("prefix");
    QTest::addColumn<QByteArray>("what");
    const auto row = [](const char *name, const char *text, const char *prefix, const char *what) {
        QTest::newRow(name) << QByteArray(text) << QByteArray(prefix) << QByteArray(what);
    };
    row("a file holding only a comma", ",", "c.yaml:1:1: ", "unexpected ',' outside a flow collection");
    row("a comma after blanks", "  ,  ,\n", "c.yaml:1:3: ", "unexpected ','");
    row("a comma after a document marker", "--- ,\n", "c.yaml:1:5: ", "unexpected ','");
    row("a comma after an anchor", "&x ,\n", "c.yaml:1:4: ", "unexpected ','");
    row("a comma in a later document", "a: 1\n---\n, b\n", "c.yaml:3:1: ", "unexpected ','");
    row("a comma after a flow list", "--- [a], b\n", "c.yaml:1:8: ", "unexpected ','");
    row("a comma after JSON gets the JSON diagnosis", "[1, 2], 3", "c.yaml:1:7: ", "unexpected ','");
    row("a closing bracket at document level", "]", "c.yaml:1:1: ", "illegal flow end");
    row("a closing brace at document level", "a: 1\n}\n", "c.yaml:2:1: ", "illegal flow end");
}

void TestYamlDocument::refusesTokensThatCannotStartADocument()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, prefix);
    QFETCH(QByteArray, what);
    const QByteArray message = bytes(errorOf(text.toStdString(), "c.yaml"));
    QVERIFY2(message.startsWith(prefix), message.constData());
    QVERIFY2(message.contains(what), message.constData());
}

void TestYamlDocument::boundsResourceUse_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("prefix");
    QTest::addColumn<QByteArray>("what");
    const auto row = [](const char *name, const std::string &text, const char *prefix, const char *what) {
        QTest::newRow(name) << bytes(text) << QByteArray(prefix) << QByteArray(what);
    };
    std::string nested;
    for (int i = 0; i <= 256; ++i)
        nested += std::string(static_cast<std::size_t>(2 * i), ' ') + "k" + std::to_string(i) + ":\n";
    nested += std::string(2 * 257, ' ') + "x\n";
    row("256 nested maps are fine, 257 are not", nested,
        "r.yaml:257:513: ", "nesting deeper than 256 levels is not supported");
    row("257 nested flow lists are refused", std::string(257, '[') + std::string(257, ']'),
        "r.yaml:1:257: ", "nesting deeper than 256 levels");
    std::string documents;
    for (int i = 0; i <= 10'000; ++i)
        documents += "--- " + std::to_string(i) + "\n";
    row("more than 10000 documents are refused", documents,
        "r.yaml:10001:1: ", "more than 10000 documents in one file");
    row("a scalar longer than 16 MiB is refused", "a: 1\nb: " + std::string(16 * 1024 * 1024 + 1, 'x') + "\n",
        "r.yaml:2:4: ", "a scalar of 16777217 bytes is longer than the 16777216 bytes supported");
    std::string wide = "a: &a " + std::string(1024 * 1024, 'x') + "\nb: [";
    for (int i = 0; i < 100; ++i)
        wide += i ? ", *a" : "*a";
    row("a long scalar behind many aliases is refused", wide + "]\n",
        "r.yaml:1:4: ", "expands by more than 67108864 bytes of text through aliases");
    std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'g'; ++c) {
        const std::string prev = std::string("*") + static_cast<char>(c - 1);
        laughs += std::string(1, c) + ": &" + c + " [" + prev;
        for (int i = 1; i < 10; ++i)
            laughs += ", " + prev;
        laughs += "]\n";
    }
    row("aliases adding more than a million nodes are refused", laughs,
        "r.yaml:", "expands by more than 1000000 nodes through aliases");
}

void TestYamlDocument::boundsResourceUse()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, prefix);
    QFETCH(QByteArray, what);
    const QByteArray message = bytes(errorOf(text.toStdString(), "r.yaml"));
    QVERIFY2(message.startsWith(prefix), message.left(300).constData());
    QVERIFY2(message.contains(what), message.left(300).constData());
}

void TestYamlDocument::reportsFileProblems()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string base = dir.path().toStdString();

    const std::string missing = base + "/missing.yaml";
    auto r = kube::loadYamlFile(missing);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 404);
    QCOMPARE(r.error().message, missing + ": file not found");

    const std::string empty = base + "/empty.yaml";
    writeFile(empty, "");
    r = kube::loadYamlFile(empty);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().message, empty + ": file is empty");

    const std::string comments = base + "/comments.yaml";
    writeFile(comments, "# nothing here\n---\n\n");
    r = kube::loadYamlFile(comments);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.rfind(comments + ": file contains no YAML document", 0) == 0,
             r.error().message.c_str());

    r = kube::loadYamlFile(base);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().message, base + ": is a directory, not a file");

    const std::string broken = base + "/broken.yaml";
    writeFile(broken, "a: 1\nb:\n\tc: 2\n");
    r = kube::loadYamlFile(broken);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().message, broken + ":3:1: tabs are not allowed for indentation");
}

void TestYamlDocument::readsFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.path().toStdString() + "/ok.yaml";
    writeFile(path, "\xEF\xBB\xBF"
                    "a: 1\n---\nb: [x]\n");
    auto r = kube::loadYamlFile(path);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->size(), std::size_t(2));
    QCOMPARE(r->at(0).value, Json::parse(R"({"a":1})"));
    QCOMPARE(r->at(1).where("/b/0"), path + ":3:5");
}

void TestYamlDocument::handlesFiveMegabyteStrings_data()
{
    QTest::addColumn<QByteArray>("style");
    QTest::newRow("a plain scalar") << QByteArray("plain");
    QTest::newRow("a double-quoted scalar") << QByteArray("double");
    QTest::newRow("a single-quoted scalar") << QByteArray("single");
    QTest::newRow("a literal block") << QByteArray("literal");
    QTest::newRow("a JSON string") << QByteArray("json");
}

void TestYamlDocument::handlesFiveMegabyteStrings()
{
    QFETCH(QByteArray, style);
    const std::size_t size = 5 * 1024 * 1024;
    const std::string payload(size, 'x');
    std::string text;
    std::string expected = payload;
    if (style == "plain") {
        text = "big: " + payload + "\nnext: 1\n";
    } else if (style == "double") {
        text = "big: \"" + payload + "\"\nnext: 1\n";
    } else if (style == "single") {
        text = "big: '" + payload + "'\nnext: 1\n";
    } else if (style == "literal") {
        text = "big: |\n";
        expected.clear();
        for (std::size_t i = 0; i < size / 64; ++i) {
            const std::string line(63, 'x');
            text += "  " + line + "\n";
            expected += line + "\n";
        }
        text += "next: 1\n";
    } else {
        text = "{\"big\": \"" + payload + "\",\n \"next\": 1}";
    }
    auto docs = kube::parseYamlDocuments(text, "big.yaml");
    QVERIFY2(docs.ok(), docs.ok() ? "" : docs.error().message.c_str());
    const kube::YamlDocument &doc = docs->front();
    QCOMPARE(doc.value.at("big").get_ref<const std::string &>().size(), expected.size());
    QVERIFY(doc.value.at("big") == expected);
    QCOMPARE(doc.value.at("next"), Json(1));
    const int nextLine = style == "literal" ? static_cast<int>(size / 64) + 2 : 2;
    QCOMPARE(doc.keyPositions.at("/next").line, nextLine);
}

void TestYamlDocument::splitsStreamsAndSkipsEmptyDocuments()
{
    const std::string text = "---\n"  // 1
                             "---\n"  // 2
                             "a: 1\n" // 3
                             "---\n"  // 4
                             "# only a comment\n"
                             "---\n"  // 6
                             "b:\n"   // 7
                             "- 2\n"  // 8
                             "...\n"  // 9
                             "---\n"  // 10
                             "[x]\n"; // 11
    auto docs = kube::parseYamlDocuments(text, "s.yaml");
    QVERIFY2(docs.ok(), docs.ok() ? "" : docs.error().message.c_str());
    QCOMPARE(docs->size(), std::size_t(3));
    QCOMPARE(docs->at(0).value, Json::parse(R"({"a":1})"));
    QCOMPARE(docs->at(0).where("/a"), std::string("s.yaml:3:4"));
    QCOMPARE(docs->at(1).value, Json::parse(R"({"b":[2]})"));
    QCOMPARE(docs->at(1).where("/b/0"), std::string("s.yaml:8:3"));
    QCOMPARE(docs->at(2).value, Json::parse(R"(["x"])"));
    QCOMPARE(docs->at(2).where(""), std::string("s.yaml:11:1"));

    auto none = kube::parseYamlDocuments("", "e.yaml");
    QVERIFY(none.ok());
    QVERIFY(none->empty());
}

void TestYamlDocument::resolvesAnchorsAliasesAndMerges()
{
    const std::string text = "base: &base\n"
                             "  image: nginx\n"
                             "  pull: Always\n"
                             "extra: &extra\n"
                             "  pull: Never\n"
                             "  port: 80\n"
                             "copy: *base\n"
                             "merged:\n"
                             "  <<: [*base, *extra]\n"
                             "  image: redis\n";
    auto docs = kube::parseYamlDocuments(text, "m.yaml");
    QVERIFY2(docs.ok(), docs.ok() ? "" : docs.error().message.c_str());
    const Json &v = docs->front().value;
    QCOMPARE(v.at("copy"), v.at("base"));
    QCOMPARE(v.at("merged"), Json::parse(R"({"image":"redis","pull":"Always","port":80})"));
    QCOMPARE(docs->front().where("/merged/image"), std::string("m.yaml:10:10"));
    QCOMPARE(docs->front().where("/merged/port"), std::string("m.yaml:6:9"));
}

void TestYamlDocument::loadsManifests()
{
    const std::string text = "apiVersion: apps/v1\n"
                             "kind: DaemonSet\n"
                             "metadata: {name: web, namespace: default}\n"
                             "---\n"
                             "apiVersion: example.com/v1\n"
                             "kind: SomethingUnknown\n"
                             "metadata:\n"
                             "  generateName: agent-\n";
    auto r = kube::loadManifests(text, "m.yaml");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->size(), std::size_t(2));
    QCOMPARE(r->at(0).object.at("kind"), Json("DaemonSet"));
    QCOMPARE(r->at(0).file, std::string("m.yaml"));
    QCOMPARE(r->at(0).pos, (SourcePos{1, 1}));
    QCOMPARE(r->at(0).pointer, std::string());
    QCOMPARE(r->at(1).object.at("kind"), Json("SomethingUnknown"));
    QCOMPARE(r->at(1).pos, (SourcePos{5, 1}));
    QCOMPARE(r->at(1).document, 1);

    auto empty = kube::loadManifests("# nothing\n", "e.yaml");
    QVERIFY(empty.ok());
    QVERIFY(empty->empty());
}

void TestYamlDocument::flattensListKinds()
{
    const std::string text = "apiVersion: v1\n"          // 1
                             "kind: List\n"              // 2
                             "items:\n"                  // 3
                             "- apiVersion: v1\n"        // 4
                             "  kind: Namespace\n"       // 5
                             "  metadata: {name: a}\n"   // 6
                             "- apiVersion: apps/v1\n"   // 7
                             "  kind: DaemonSetList\n"   // 8
                             "  items:\n"                // 9
                             "  - apiVersion: apps/v1\n" // 10
                             "    kind: DaemonSet\n"     // 11
                             "    metadata: {name: b}\n" // 12
                             "---\n"                     // 13
                             "apiVersion: v1\n"          // 14
                             "kind: PodList\n"           // 15
                             "items: []\n"               // 16
                             "---\n"                     // 17
                             "apiVersion: v1\n"          // 18
                             "kind: Pod\n"               // 19
                             "metadata: {name: c}\n";    // 20
    auto r = kube::loadManifests(text, "l.yaml");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->size(), std::size_t(3));
    QCOMPARE(r->at(0).pointer, std::string("/items/0"));
    QCOMPARE(r->at(0).pos, (SourcePos{4, 3}));
    QCOMPARE(r->at(1).pointer, std::string("/items/1/items/0"));
    QCOMPARE(r->at(1).pos, (SourcePos{10, 5}));
    QCOMPARE(r->at(1).object.at("metadata").at("name"), Json("b"));
    QCOMPARE(r->at(2).pointer, std::string());
    QCOMPARE(r->at(2).pos, (SourcePos{18, 1}));
    QCOMPARE(r->at(2).document, 2);
}

void TestYamlDocument::rejectsIncompleteManifests_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("message");

    const auto row = [](const char *name, const char *text, const char *message) {
        QTest::newRow(name) << QByteArray(text) << QByteArray(message);
    };
    row("a missing kind is named at the object",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n\napiVersion: v1\nmetadata: {name: x}\n",
        "o.yaml:6:1: kind is missing (\"x\")");
    row("a missing apiVersion is named at the object", "kind: Pod\nmetadata:\n  name: x\n",
        "o.yaml:1:1: apiVersion is missing (Pod \"x\")");
    row("a numeric apiVersion is named at the value", "apiVersion: 1\nkind: Pod\nmetadata: {name: x}\n",
        "o.yaml:1:13: apiVersion must be a string, not a number (Pod \"x\")");
    row("an empty kind is named at the value", "apiVersion: v1\nkind: ''\nmetadata: {name: x}\n",
        "o.yaml:2:7: kind is empty (\"x\")");
    row("every missing field is listed", "metadata: {}\n",
        "o.yaml:1:1: apiVersion is missing; kind is missing; metadata.name is missing");
    row("a missing metadata is named at the object", "apiVersion: v1\nkind: Pod\n",
        "o.yaml:1:1: metadata.name is missing (Pod)");
    row("metadata that is not a map is named at the value", "apiVersion: v1\nkind: Pod\nmetadata: x\n",
        "o.yaml:3:11: metadata must be a map, not a string (Pod)");
    row("a missing name is named at metadata", "apiVersion: v1\nkind: Pod\nmetadata:\n  labels: {}\n",
        "o.yaml:4:3: metadata.name is missing (Pod)");
    row("a numeric name is named at the value", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: 12\n",
        "o.yaml:4:9: metadata.name must be a string, not a number (Pod)");
    row("a list item without a name is named at the item",
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n"
        "- apiVersion: v1\n  kind: Pod\n  metadata: {}\n",
        "o.yaml:9:13: metadata.name is missing (Pod)");
    row("items that are not a list are named", "apiVersion: v1\nkind: PodList\nitems: {}\n",
        "o.yaml:3:8: items must be a list, not a map");
    row("a list without apiVersion is named", "kind: List\nitems: []\n", "o.yaml:1:1: apiVersion is missing");
    row("a scalar document is not an object", "just text\n",
        "o.yaml:1:1: expected a Kubernetes object (a map), got a string");
    row("a list document is not an object", "- a\n- b\n",
        "o.yaml:1:1: expected a Kubernetes object (a map), got a list");
    row("a YAML error comes through", "apiVersion: v1\nkind: Pod\nkind: Pod\n",
        "o.yaml:3:1: duplicate key \"kind\" (first defined at line 2, column 1)");
}

void TestYamlDocument::rejectsIncompleteManifests()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, message);
    auto r = kube::loadManifests(text.toStdString(), "o.yaml");
    QVERIFY(!r.ok());
    QCOMPARE(bytes(r.error().message), message);
    QCOMPARE(r.error().reason, std::string("BadRequest"));
}

void TestYamlDocument::loadsManifestFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.path().toStdString() + "/ds.json";
    writeFile(path, R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"web"}})");
    auto r = kube::loadManifestFile(path);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->size(), std::size_t(1));
    QCOMPARE(r->front().file, path);

    auto missing = kube::loadManifestFile(dir.path().toStdString() + "/nope.yaml");
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.find("nope.yaml: file not found") != std::string::npos);
}

void TestYamlDocument::loadsManifestsAsFromEveryPosition_data()
{
    QTest::addColumn<QByteArray>("text");
    const auto row = [](const char *name, const char *text) { QTest::newRow(name) << QByteArray(text); };
    row("flow-style maps and lists",
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: web, labels: {app: web, 'tier': \"node\"}}\n"
        "spec:\n  template:\n    spec:\n      containers: [{name: a, image: \"a:1\", args: [x, 'y', "
        "\"2\"]}]\n"
        "      tolerations: []\n");
    row("anchors, aliases and merge keys",
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: web\n  labels: &l {app: web}\nspec:\n"
        "  selector:\n    matchLabels: *l\n  template:\n    spec:\n      containers:\n      - &c\n"
        "        name: a\n        image: a:1\n      - <<: *c\n        name: b\n");
    row("documents with comments and markers, the first not on line 1",
        "# leading comment\n---\n---\n\n  # indented comment\napiVersion: v1   # trailing\nkind: Pod\n"
        "metadata:\n  name: a   # name\n...\n---\n# between\napiVersion: v1\nkind: Pod\nmetadata: {name: "
        "b}\n");
    row("quoted strings and escapes",
        "\"apiVersion\": 'v1'\nkind: \"Pod\"\nmetadata:\n  name: 'it''s'\n  annotations:\n"
        "    \"example.com/a~b\": \"tab\\there \\\"quoted\\\"\"\n    yes: \"yes\"\n    '1': \"0644\"\n");
    row("literal and folded block scalars",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  literal: |\n    one\n      two\n"
        "  strip: |-\n    three\n  keep: |+\n    four\n\n  folded: >\n    five\n    six\n\n    seven\n"
        "  indented: |2\n     eight\n    nine\n");
    row("a List whose items carry their own positions",
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n"
        "-   apiVersion: v1\n    kind: Pod\n    metadata:\n      name: b\n");
    row("a List inside a List after a plain object",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: List\nitems:\n"
        "- apiVersion: apps/v1\n  kind: DaemonSetList\n  items:\n  - apiVersion: apps/v1\n    kind: "
        "DaemonSet\n"
        "    metadata: {name: b}\n");
    row("a field of the wrong type, named at its value",
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: web\nspec:\n  revisionHistoryLimit: three\n"
        "  template:\n    spec:\n      containers:\n        a: {image: x}\n");
    row("a wrong type inside a List item",
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n"
        "    labels:\n      n: 1\n");
    row("a missing name in the second document",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n\napiVersion: v1\nkind: Pod\nmetadata:\n"
        "  labels: {a: b}\n");
    row("a key that needs escaping in a pointer",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  labels:\n    example.com/x~y: 5\n");
    row("a JSON document", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n \"metadata\": {\"name\": \"a\", "
                           "\"labels\": {\"x\": 1}}}\n");
    row("a YAML error", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n");
    row("nothing but comments", "# nothing\n---\n# here\n");
}

void TestYamlDocument::loadsManifestsAsFromEveryPosition()
{
    // loadManifests reads positions besides the roots' only when it needs them; what it returns
    // must be what the documents read with every position give.
    QFETCH(QByteArray, text);
    const std::string t = text.toStdString();
    const auto all = kube::parseYamlDocuments(t, "m.yaml", kube::YamlPositions::All);
    const auto expected =
        all ? kube::manifestsFromDocuments(*all) : kube::Result<std::vector<kube::Manifest>>(all.error());
    const std::string d = difference(kube::loadManifests(t, "m.yaml"), expected);
    QVERIFY2(d.empty(), d.c_str());

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.path().toStdString() + "/m.yaml";
    writeFile(path, t);
    const auto file = kube::loadYamlFile(path);
    const auto expectedFromFile =
        file ? kube::manifestsFromDocuments(*file) : kube::Result<std::vector<kube::Manifest>>(file.error());
    const std::string df = difference(kube::loadManifestFile(path), expectedFromFile);
    QVERIFY2(df.empty(), df.c_str());
}

QTEST_APPLESS_MAIN(TestYamlDocument)
#include "tst_yamldocument.moc"
