// The loader's fast reader (models/kube/yamlfast.h) against yaml-cpp's reader: on every YAML and
// JSON file of the repository, their kubectl-style renderings, 5,000-line DaemonSet manifests and
// many variants (truncated, re-indented, a line dropped, a character inserted or removed), the
// fast reader either declines or builds exactly the documents yaml-cpp's reader builds — value,
// positions and key positions — and it never accepts a text yaml-cpp's reader refuses. Asked for
// the roots' positions only, it declines the same texts and builds the same values. It must also
// really read the ordinary manifests, so that losing the fast path fails here.

#include "models/kube/yaml.h"
#include "models/kube/yamldocument.h"
#include "models/kube/yamlfast.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>

using kube::YamlDocument;

namespace {

const std::string kSourceDir = DAEMONSCOPE_SOURCE_DIR;

std::string readFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string posText(const kube::SourcePos &p)
{
    return std::to_string(p.line) + ":" + std::to_string(p.column);
}

std::string compareMaps(const char *what, const std::map<std::string, kube::SourcePos> &fast,
                        const std::map<std::string, kube::SourcePos> &slow)
{
    for (const auto &[pointer, pos] : slow) {
        const auto it = fast.find(pointer);
        if (it == fast.end())
            return std::string(what) + " of \"" + pointer + "\" missing";
        if (!(it->second == pos))
            return std::string(what) + " of \"" + pointer + "\": " + posText(it->second) + " instead of " +
                   posText(pos);
    }
    for (const auto &[pointer, pos] : fast)
        if (!slow.count(pointer))
            return std::string(what) + " of \"" + pointer + "\" that yaml-cpp's reader does not record";
    return {};
}

// What the fast reader did with a text: declined, or read it as yaml-cpp's reader does, or a
// difference (the text of the failure).
struct Outcome
{
    bool accepted = false;
    std::string problem;
};

// The fast reader asked for the roots' positions only: the same documents, declined on the same
// texts, with no other position.
std::string compareRootsOnly(const std::string &text, const std::optional<std::vector<YamlDocument>> &all)
{
    const auto roots = kube::detail::parseYamlDocumentsFast(text, "t.yaml", kube::YamlPositions::Roots);
    if (roots.has_value() != all.has_value())
        return roots ? "reading the roots' positions only accepts a text it declines otherwise"
                     : "reading the roots' positions only declines a text it accepts otherwise";
    if (!roots)
        return {};
    if (roots->size() != all->size())
        return "reading the roots' positions only: " + std::to_string(roots->size()) +
               " documents instead of " + std::to_string(all->size());
    for (std::size_t i = 0; i < all->size(); ++i) {
        const YamlDocument &r = (*roots)[i];
        const YamlDocument &a = (*all)[i];
        const std::string doc = "reading the roots' positions only, document " + std::to_string(i) + ": ";
        if (r.value != a.value || r.file != a.file)
            return doc + "value " + r.value.dump() + " instead of " + a.value.dump();
        const std::map<std::string, kube::SourcePos> root{{"", a.positions.at("")}};
        if (auto p = compareMaps("position", r.positions, root); !p.empty())
            return doc + p;
        if (!r.keyPositions.empty())
            return doc + "key positions recorded";
    }
    return {};
}

Outcome compare(const std::string &text)
{
    const auto fast = kube::detail::parseYamlDocumentsFast(text, "t.yaml");
    if (auto p = compareRootsOnly(text, fast); !p.empty())
        return {true, p};
    if (!fast)
        return {};
    const auto slow = kube::detail::parseYamlDocumentsSlow(text, "t.yaml");
    if (!slow)
        return {true, "the fast reader accepts a text yaml-cpp's reader refuses: " + slow.error().message};
    if (fast->size() != slow->size())
        return {true, std::to_string(fast->size()) + " documents instead of " + std::to_string(slow->size())};
    for (std::size_t i = 0; i < slow->size(); ++i) {
        const YamlDocument &f = (*fast)[i];
        const YamlDocument &s = (*slow)[i];
        const std::string doc = "document " + std::to_string(i) + ": ";
        if (f.value != s.value)
            return {true, doc + "value " + f.value.dump() + " instead of " + s.value.dump()};
        if (f.file != s.file)
            return {true, doc + "file " + f.file + " instead of " + s.file};
        if (auto p = compareMaps("position", f.positions, s.positions); !p.empty())
            return {true, doc + p};
        if (auto p = compareMaps("key position", f.keyPositions, s.keyPositions); !p.empty())
            return {true, doc + p};
    }
    return {true, {}};
}

// Fails the test with the text when the readers differ; else adds 1 to `count` when the fast
// reader read the text.
#define CHECK_SAME(count, text, label)                                                                       \
    do {                                                                                                     \
        const std::string &t_ = (text);                                                                      \
        const Outcome o_ = compare(t_);                                                                      \
        if (!o_.problem.empty())                                                                             \
            QFAIL(qPrintable(QString::fromStdString(std::string(label) + ": " + o_.problem +                 \
                                                    "\n--- text ---\n" + t_.substr(0, 4000))));              \
        count += o_.accepted ? 1 : 0;                                                                        \
    } while (false)

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::string joinLines(const std::vector<std::string> &lines)
{
    std::string text;
    for (const auto &l : lines)
        text += l + "\n";
    return text;
}

// Every YAML and JSON file of the source tree (not of build directories).
std::vector<std::filesystem::path> repositoryFiles()
{
    std::vector<std::filesystem::path> files;
    namespace fs = std::filesystem;
    for (auto it = fs::recursive_directory_iterator(kSourceDir); it != fs::recursive_directory_iterator();
         ++it) {
        const std::string name = it->path().filename().string();
        if (it->is_directory() &&
            (name.rfind('.', 0) == 0 || name == "build" || name.rfind("build-", 0) == 0)) {
            it.disable_recursion_pending();
            continue;
        }
        const std::string ext = it->path().extension().string();
        if (it->is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json"))
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// A DaemonSet of `lines` lines as tests/bench/bench_diff.cpp writes it, and a variant with about
// 5 % of the values changed.
std::vector<std::string> daemonSetManifest(int lines, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::string> out = {
        "apiVersion: apps/v1",      "kind: DaemonSet", "metadata:",        "  name: agent",
        "  namespace: kube-system", "spec:",           "  selector:",      "    matchLabels:",
        "      app: agent",         "  template:",     "    metadata:",    "      labels:",
        "        app: agent",       "    spec:",       "      containers:"};
    for (int block = 0; static_cast<int>(out.size()) < lines; ++block) {
        const std::string n = std::to_string(block);
        for (const std::string &l : std::vector<std::string>{
                 "      - name: agent-" + n,
                 "        image: registry.example.com/agent:1." + std::to_string(rng() % 40),
                 "        env:", "        - name: LOG_LEVEL",
                 rng() % 20 == 0 ? std::string("          value: debug")
                                 : std::string("          value: info"),
                 "        - name: SHARD", "          value: \"" + n + "\"", "        resources:",
                 "          limits:", "            memory: " + std::to_string(64 << (rng() % 4)) + "Mi",
                 "        volumeMounts:", "        - mountPath: /var/log", "          name: varlog"})
            out.push_back(l);
    }
    return out;
}

const std::string &featureSample()
{
    static const std::string text = readFile(kSourceDir + "/tests/kube/data/yamlfast-features.yaml");
    return text;
}

// Variants of a text: cut at every `step`-th byte, a line dropped, indented one more or one less,
// a character removed and, at every `step`-th byte, a character or token inserted.
template <typename Check> void forEachVariant(const std::string &text, std::size_t step, Check check)
{
    const auto lines = splitLines(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        auto dropped = lines;
        dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(i));
        check(joinLines(dropped), "line " + std::to_string(i + 1) + " dropped");
        auto deeper = lines;
        deeper[i] = " " + deeper[i];
        check(joinLines(deeper), "line " + std::to_string(i + 1) + " indented one more");
        if (!lines[i].empty() && lines[i][0] == ' ') {
            auto shallower = lines;
            shallower[i].erase(0, 1);
            check(joinLines(shallower), "line " + std::to_string(i + 1) + " indented one less");
        }
    }
    static const char *const inserts[] = {":", " ",  "#",  "-",  "'",     "\"",    "|",        ">",    "[",
                                          "]", "{",  "}",  ",",  "&",     "*",     "!",        "?",    "\n",
                                          "~", "\\", "\t", "\r", " #",    ": ",    "- ",       "\n  ", "\n- ",
                                          "0", "%",  "@",  ".",  "---\n", "...\n", "\xC3\xA9", "\x01"};
    for (std::size_t i = 0; i < text.size(); i += step) {
        check(text.substr(0, i), "cut at byte " + std::to_string(i));
        check(std::string(text).erase(i, 1), "byte " + std::to_string(i) + " removed");
        for (const char *insert : inserts) {
            std::string what = "\"";
            what.append(insert).append("\" inserted at byte ").append(std::to_string(i));
            check(std::string(text).insert(i, insert), what);
        }
    }
}

} // namespace

class TestYamlFast : public QObject
{
    Q_OBJECT

private slots:
    void repositoryFilesReadTheSame();
    void ordinaryManifestsTakeTheFastPath();
    void featureSampleIsReadFast();
    void variantsReadTheSame();
    void benchManifestsReadTheSame();
    void loaderUsesEitherReader();
};

void TestYamlFast::repositoryFilesReadTheSame()
{
    const auto files = repositoryFiles();
    QVERIFY2(files.size() > 100, "the source tree's YAML and JSON files were not found");
    std::size_t accepted = 0, rendered = 0, renderedAccepted = 0;
    for (const auto &path : files) {
        const std::string text = readFile(path);
        const std::string label = path.string();
        CHECK_SAME(accepted, text, label);
        // The same documents as kube::toYaml writes them.
        const auto docs = kube::detail::parseYamlDocumentsSlow(text, label);
        if (!docs || docs->empty())
            continue;
        std::string yaml;
        for (const auto &doc : *docs)
            yaml += "---\n" + kube::toYaml(doc.value);
        ++rendered;
        CHECK_SAME(renderedAccepted, yaml, label + " rendered by kube::toYaml");
    }
    qInfo("fast reader: %zu of %zu files, %zu of %zu renderings", accepted, files.size(), renderedAccepted,
          rendered);
    QVERIFY(accepted > 100);
    QVERIFY(renderedAccepted * 10 > rendered * 9);
}

void TestYamlFast::ordinaryManifestsTakeTheFastPath()
{
    for (const char *file :
         {"tests/diff/data/web-rev3.yaml", "tests/diff/data/web-rev5.yaml", "tests/diff/data/script.yaml",
          "tests/diff/data/two-objects.yaml", "tests/fuzz/corpus/yaml/three-documents.yaml",
          "tests/fuzz/corpus/yaml/web-scenario.yaml", "tests/serve/web.yaml", "tests/serve/drain.yaml"}) {
        const std::string text = readFile(kSourceDir + "/" + file);
        QVERIFY2(!text.empty(), file);
        int fast = 0;
        CHECK_SAME(fast, text, file);
        QVERIFY2(fast == 1, (std::string(file) + ": the fast reader declined it").c_str());
        const auto docs = kube::parseYamlDocuments(text, file);
        QVERIFY(docs.ok());
        std::string yaml;
        for (const auto &doc : *docs)
            yaml += "---\n" + kube::toYaml(doc.value);
        CHECK_SAME(fast, yaml, std::string(file) + " rendered");
        QVERIFY2(fast == 2, (std::string(file) + " rendered: the fast reader declined it").c_str());
    }
}

void TestYamlFast::featureSampleIsReadFast()
{
    // Literal and folded scalars with their indicators, quotes and escapes, flow collections,
    // "- key: value" lists, lists not indented under their key, YAML 1.1 scalars and keys,
    // comments, "---", "..." and several documents.
    int fast = 0;
    CHECK_SAME(fast, featureSample(), "yamlfast-features.yaml");
    QCOMPARE(fast, 1);
}

void TestYamlFast::variantsReadTheSame()
{
    std::size_t checked = 0, accepted = 0;
    std::string failure;
    const auto check = [&](const std::string &text, const std::string &what) {
        if (!failure.empty())
            return;
        ++checked;
        const Outcome o = compare(text);
        accepted += o.accepted ? 1 : 0;
        if (!o.problem.empty())
            failure = what + ": " + o.problem + "\n--- text ---\n" + text.substr(0, 4000);
    };
    // Every third (seventh) byte in optimised builds; the sanitizer build, ten times slower,
    // samples a third of those.
#ifdef NDEBUG
    const std::size_t sampleStep = 3, fileStep = 7;
#else
    const std::size_t sampleStep = 9, fileStep = 21;
#endif
    forEachVariant(featureSample(), sampleStep, check);
    for (const char *file :
         {"tests/diff/data/web-rev3.yaml", "tests/diff/data/script.yaml",
          "tests/fuzz/corpus/yaml/yaml11-scalars.yaml", "tests/fuzz/corpus/yaml/three-documents.yaml"})
        forEachVariant(readFile(kSourceDir + "/" + file), fileStep, check);
    QVERIFY2(failure.empty(), failure.c_str());
    qInfo("fast reader: %zu of %zu variants", accepted, checked);
    QVERIFY(accepted * 5 > checked); // the variants must exercise the fast reader, not only its refusals
}

void TestYamlFast::benchManifestsReadTheSame()
{
    const std::string a = joinLines(daemonSetManifest(5000, 1));
    const std::string b = joinLines(daemonSetManifest(5000, 2));
    int fast = 0;
    CHECK_SAME(fast, a, "5,000-line manifest");
    CHECK_SAME(fast, b, "another 5,000-line manifest");
    const auto docs = kube::parseYamlDocuments(a, "a.yaml");
    QVERIFY(docs.ok());
    CHECK_SAME(fast, kube::toYaml(docs->front().value), "5,000-line manifest rendered");
    QCOMPARE(fast, 3);
}

void TestYamlFast::loaderUsesEitherReader()
{
    // What the fast reader declines still reads (or fails) as before.
    const auto anchors = kube::parseYamlDocuments("a: &x 1\nb: *x\n", "t.yaml");
    QVERIFY(anchors.ok());
    QCOMPARE(anchors->front().value.dump(), std::string(R"({"a":1,"b":1})"));
    const auto duplicate = kube::parseYamlDocuments("a: 1\na: 2\n", "t.yaml");
    QVERIFY(!duplicate.ok());
    QCOMPARE(duplicate.error().message,
             std::string("t.yaml:2:1: duplicate key \"a\" (first defined at line 1, column 1)"));
    const auto unnamed = kube::parseYamlDocuments("a: 1\n", "");
    QVERIFY(unnamed.ok());
    QCOMPARE(unnamed->front().file, std::string("<input>"));
    QCOMPARE(unnamed->front().where("/a"), std::string("<input>:1:4"));
}

QTEST_APPLESS_MAIN(TestYamlFast)
#include "tst_yamlfast.moc"
