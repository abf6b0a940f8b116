#pragma once
// IntOrString (intstr.IntOrString) and GetScaledValueFromIntOrPercent.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <string>

namespace kube {

class IntOrString
{
public:
    IntOrString() = default;
    static IntOrString fromInt(int v);
    static IntOrString fromString(std::string s);

    bool isInt() const { return m_isInt; }
    int intValue() const { return m_int; }
    const std::string &stringValue() const { return m_str; }
    std::string toString() const { return m_isInt ? std::to_string(m_int) : m_str; }

    // Resolves against `total`: an int is returned as-is; "p%" becomes p*total/100, rounded up
    // (roundUp) or down. A string without '%' is an error, as upstream.
    Result<int> scaledValue(int total, bool roundUp) const;

    Json toJson() const;
    static Result<IntOrString> fromJson(const Json &j);
    bool operator==(const IntOrString &) const = default;

private:
    bool m_isInt = true;
    int m_int = 0;
    std::string m_str;
};

} // namespace kube
