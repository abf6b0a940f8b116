#pragma once
// The node-agent upgrade controller's phrases (api/phrase.h) in the user's language: the
// engine hands codes with typed slots, this file hands their translated templates to the same
// renderer. With no translation installed the text equals the engine's English.
//
// Translations live in the contexts "UpgradePhrase" (api::UpgradePhrase) and "UpgradeEvent"
// (api::UpgradeReason): a translation keeps every {slot} of its source.

#include "models/api/phrase.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace models {

QString phraseText(const api::Phrase &phrase);
QStringList phraseTexts(const std::vector<api::Phrase> &phrases);

// The templates lupdate extracts, by catalogue and code (for the test that they equal the
// engine's).
std::vector<const char *> phraseSources(api::PhraseCatalog catalog);

} // namespace models
