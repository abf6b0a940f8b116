// Fuzzes field ownership (models/api/fieldmanager.h) and the schema walks it rests on
// (kube::schema): the input is a JSON array [live, config] of two objects whose apiVersion and
// kind pick the schema (a DaemonSet when they are missing), each possibly carrying
// managedFields a client made up. Checked: an update and an apply never throw; an apply either
// succeeds with well-formed managedFields, fails with a conflict (409) or refuses a configuration
// it cannot type (500); re-applying the same
// configuration by the same manager changes nothing and conflicts with nobody; pruning leaves no
// unknown field.

#include "models/api/fieldmanager.h"
#include "models/kube/apischema.h"
#include "models/kube/jsonlimits.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

void typed(kube::Json &o)
{
    if (!o.is_object())
        return;
    if (!o.contains("apiVersion") || !o["apiVersion"].is_string())
        o["apiVersion"] = "apps/v1";
    if (!o.contains("kind") || !o["kind"].is_string())
        o["kind"] = "DaemonSet";
    if (!o.contains("metadata") || !o["metadata"].is_object())
        o["metadata"] = kube::Json::object();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    auto parsed = kube::JsonLimits::parse(std::string_view(reinterpret_cast<const char *>(data), size));
    if (!parsed || !parsed->is_array() || parsed->size() != 2 || !(*parsed)[0].is_object() ||
        !(*parsed)[1].is_object())
        return 0;
    kube::Json live = (*parsed)[0];
    kube::Json config = (*parsed)[1];
    typed(live);
    typed(config);

    if (const kube::schema::Struct *type = kube::schema::structForObject(config)) {
        kube::Json pruned = config;
        kube::schema::pruneUnknownFields(pruned, *type);
        FUZZ_CHECK(kube::schema::unknownFields(pruned, *type).empty());
    }

    const api::FieldManagerContext ctx{"fuzzer", "apps/v1", "", "2026-01-01T00:00:00Z"};
    const kube::Json managed = api::FieldManager::update(&live, config, ctx);
    FUZZ_CHECK(managed.is_array());
    (void)api::FieldManager::update(nullptr, live, ctx);

    auto applied = api::FieldManager::apply(&live, config, ctx, false);
    if (!applied && applied.error().code == 500) {
        // A configuration structured-merge-diff cannot type (a list element without its key, a
        // key given twice) is refused whoever owns what.
        FUZZ_CHECK(applied.error().message.rfind("failed to create typed patch object (", 0) == 0);
        FUZZ_CHECK(!api::FieldManager::apply(&live, config, ctx, true).ok());
        return 0;
    }
    if (!applied) {
        FUZZ_CHECK(applied.error().code == 409 && !applied.error().causes.empty());
        applied = api::FieldManager::apply(&live, config, ctx, true);
        FUZZ_CHECK(applied.ok());
    }
    FUZZ_CHECK(applied->is_object());
    const kube::Json &meta = (*applied)["metadata"];
    FUZZ_CHECK(!meta.contains("managedFields") || meta["managedFields"].is_array());
    auto again = api::FieldManager::apply(&*applied, config, ctx, false);
    FUZZ_CHECK(again.ok());
    kube::Json a = *applied, b = *again;
    a["metadata"].erase("managedFields");
    b["metadata"].erase("managedFields");
    FUZZ_CHECK(a == b);
    (void)api::FieldManager::apply(nullptr, config, ctx, false);
    return 0;
}
