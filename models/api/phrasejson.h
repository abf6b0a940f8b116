#pragma once
// A phrase (phrase.h) as JSON, so that it can leave the process that phrased it and be read in
// another language elsewhere: the node-upgrade controller writes its headline this way into the
// rollout's status (status.headlinePhrase), next to the English text, and a console that is not
// the one driving the rollout phrases it with its own templates.
//
// - a literal is a JSON string;
// - a template is {"phrase": NAME} (the Upgrade catalogue) or {"event": NAME} (the Event
//   catalogue), NAME the code's stable name (upgradePhraseName, upgradeReasonName), with
//   "args": [[slot, phrase], ...] in the template's slot order when it has any;
// - a list is {"list": [phrase, ...], "separator": TEXT} and "max": N when it shows at most N.
//
// Reading is strict: an unknown name (a newer controller's) or another shape gives nullopt, and
// the reader falls back to the English text.

#include "models/api/phrase.h"
#include "models/kube/gojson.h"

#include <optional>

namespace api {

kube::Json phraseToJson(const Phrase &phrase);
std::optional<Phrase> phraseFromJson(const kube::Json &json);

} // namespace api
