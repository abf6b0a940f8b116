#pragma once
// Phrase — a sentence the engine reports (a headline, a blocker, an event message) kept as a
// code and typed parts instead of finished English, so that a user interface phrases it in its
// own language (docs: codes, not prose, below models/).
//
// A phrase is one of:
// - a literal: names, numbers, durations, reason codes — text that no language changes;
// - a template: a sentence with named slots, "{node} still restarting ({elapsed}/{limit})",
//   identified by a code; its slots hold phrases;
// - a list: phrases joined by a separator, with at most `max` shown and the rest counted
//   ("a, b, c and 4 more", itself the template Catalog::AndMore).
//
// render() fills the slots from the template a lookup hands it for each code: english() looks
// them up in the engine's own catalogue (the text the engine writes into API objects, traces
// and the CLI); models/ hands translated templates in. Both walk the same tree, so a language
// only supplies templates, never logic. A slot without an argument renders empty; text outside
// slots is copied as it is.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace api {

// Which table a template code indexes.
enum class PhraseCatalog : std::uint8_t {
    Upgrade, // UpgradePhrase (nodeupgradephrases.h)
    Event,   // UpgradeReason (nodeupgradeevents.h): the event messages
};

struct PhraseArg;

struct Phrase
{
    enum class Kind : std::uint8_t { Literal, Template, List };
    Kind kind = Kind::Literal;
    PhraseCatalog catalog = PhraseCatalog::Upgrade;
    int code = 0;                // Template: the index into its catalogue
    std::string text;            // Literal: the text; List: the separator
    std::vector<PhraseArg> args; // Template: the slots' values
    std::vector<Phrase> items;   // List
    std::size_t max = 0;         // List: items shown at most (0 = all)

    Phrase() = default;
    // Literals convert implicitly. Defined below PhraseArg: a constructor's body destroys
    // `args`, which needs PhraseArg complete (clang checks it where the body stands).
    Phrase(std::string literal);      // NOLINT
    Phrase(const char *literal);      // NOLINT
    Phrase(std::string_view literal); // NOLINT

    static Phrase of(PhraseCatalog catalog, int code, std::vector<PhraseArg> args);
    static Phrase list(std::vector<Phrase> items, std::string separator, std::size_t max = 0);
    static Phrase list(const std::vector<std::string> &items, std::string separator, std::size_t max = 0);

    bool empty() const { return kind == Kind::Literal && text.empty(); }
    // The argument named `name`, or nullptr.
    const Phrase *arg(std::string_view name) const;
    bool operator==(const Phrase &other) const;
};

struct PhraseArg
{
    std::string name;
    Phrase value;
    bool operator==(const PhraseArg &) const = default;
};

inline Phrase::Phrase(std::string literal) : text(std::move(literal)) {}
inline Phrase::Phrase(const char *literal) : text(literal) {}
inline Phrase::Phrase(std::string_view literal) : text(literal) {}

// The template text for a code of a catalogue; the "and N more" tail of a long list is the
// template (Upgrade, AndMore) with slots {items} and {count}.
using PhraseLookup = std::function<std::string(PhraseCatalog catalog, int code)>;

std::string render(const Phrase &phrase, const PhraseLookup &lookup);
// render() with the engine's own (English) templates.
std::string english(const Phrase &phrase);
// Fills {name} slots of `text` from `args` rendered with `lookup`.
std::string fillTemplate(std::string_view text, const std::vector<PhraseArg> &args,
                         const PhraseLookup &lookup);

} // namespace api
