#pragma once
// TablePrinter — server-side printing (meta.k8s.io/v1 Table) with the columns kube-apiserver's
// printers use for the served kinds, so `kubectl get` shows what it shows against a real
// cluster. Cells are preformatted (ages relative to the virtual clock); priority-1 columns
// appear only with -o wide. Rows carry a PartialObjectMetadata unless includeObject=None.

#include "models/api/kind.h"
#include "models/kube/gojson.h"
#include "models/kube/timeutil.h"

#include <string>
#include <vector>

namespace server {

class TablePrinter
{
public:
    enum class IncludeObject { None, Metadata, Object };

    static IncludeObject includeObjectFrom(const std::string &query); // "" = Metadata
    static kube::Json columnDefinitions(api::Kind kind);
    static kube::Json cells(api::Kind kind, const kube::Json &object, kube::Timestamp now);
    static kube::Json row(api::Kind kind, const kube::Json &object, kube::Timestamp now,
                          IncludeObject include);
    // A Table of the objects; withColumns false leaves columnDefinitions empty (later watch
    // events). resourceVersion and continueToken go to the list metadata.
    static kube::Json table(api::Kind kind, const std::vector<kube::Json> &objects, kube::Timestamp now,
                            IncludeObject include, const std::string &resourceVersion,
                            const std::string &continueToken = {}, bool withColumns = true);
};

} // namespace server
