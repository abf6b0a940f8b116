#pragma once
// The node-agent upgrade controller's phrases (engine/phrase.h) in the user's language: the
// engine hands codes with typed slots, this file hands their translated templates to the same
// renderer. With no translation installed the text equals the engine's English.
//
// Translations live in the contexts "UpgradePhrase" (engine::UpgradePhrase) and "UpgradeEvent"
// (engine::UpgradeReason): a translation keeps every {slot} of its source.

#include "models/engine/phrase.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace models {

QString phraseText(const engine::Phrase &phrase);
QStringList phraseTexts(const std::vector<engine::Phrase> &phrases);

// The templates lupdate extracts, by catalogue and code (for the test that they equal the
// engine's).
std::vector<const char *> phraseSources(engine::PhraseCatalog catalog);

} // namespace models
