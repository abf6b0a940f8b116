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
//
// A second, restricted identity exists when the server is given a viewer token (serve
// --viewer-token): the user daemonscope-viewer may read everything (get, list, watch) and ask
// these reviews, and nothing else. The reviews answer for it by the same rule the server uses
// to refuse its writes (Reviews::allows), with kube-apiserver's 403 Forbidden text
// (Reviews::forbidden), so `kubectl auth can-i` and the console see what a write would meet.

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

enum class Identity { Anonymous, Admin, Viewer };

class Reviews
{
public:
    // The authorization rule: whether `identity` may `verb` ("get", "patch", "create", ...).
    static bool allows(Identity identity, const std::string &verb);
    // kube-apiserver's refusal: `daemonsets.apps "web" is forbidden: User "daemonscope-viewer"
    // cannot patch resource "daemonsets" in API group "apps" in the namespace "default"`.
    static kube::ApiStatus forbidden(Identity identity, const std::string &verb, const std::string &group,
                                     const std::string &resource, const std::string &subresource,
                                     const std::string &ns, const std::string &name);
    // The HTTP method's verb (GET on a collection is list, DELETE of one is delete, ...).
    static std::string verbOf(const std::string &method, bool collection, bool watch);
    static std::string userName(Identity identity);
    // The answer for an identity (the viewer's reviews say what it may do).
    static kube::Result<kube::Json> answer(const ReviewResource &review, const kube::Json &body,
                                           Identity identity);

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
