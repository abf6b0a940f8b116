#pragma once
// The self-subject review APIs kubectl auth uses: authorization.k8s.io/v1
// selfsubjectaccessreviews (`kubectl auth can-i VERB RESOURCE`), selfsubjectrulesreviews
// (`kubectl auth can-i --list`) and authentication.k8s.io/v1 selfsubjectreviews
// (`kubectl auth whoami`). They are created, never stored: the answer is the review with its
// status filled in.
//
// The embedded server has one identity per mode: with a token (serve --tls) every request that
// carries it is the cluster administrator (system:masters, allowed everything); without one,
// every request is anonymous and allowed everything too. The answers say exactly that.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <string>
#include <vector>

namespace server {

struct ReviewResource
{
    const char *group;
    const char *version;
    const char *resource;
    const char *kind;
};

class Reviews
{
public:
    // The review resources discovery lists, in the order kube-apiserver lists them.
    static const std::vector<ReviewResource> &resources();
    // The groups they live in ("authentication.k8s.io", "authorization.k8s.io").
    static std::vector<std::string> groups();

    // The review a POST path names, or nullptr: /apis/GROUP/VERSION/RESOURCE.
    static const ReviewResource *match(const std::string &path);

    // The answer to a POST of `body` (the review as JSON) to `review`: the review with its
    // status. `authenticated` says whether the request carried the server's token.
    static kube::Result<kube::Json> answer(const ReviewResource &review, const kube::Json &body,
                                           bool authenticated);
};

} // namespace server
