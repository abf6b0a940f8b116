#pragma once
// Rng — the embedded cluster's only source of randomness (the store's generated names and uids,
// the simulation's delays and choices): xoshiro256** seeded through splitmix64.
// Implemented here rather than with <random> distributions because those differ between
// standard library versions, and the same seed must give the same cluster everywhere.

#include <cstdint>
#include <string>

namespace store {

class Rng
{
public:
    explicit Rng(std::uint64_t seed = 1) { reseed(seed); }

    void reseed(std::uint64_t seed)
    {
        std::uint64_t x = seed;
        for (auto &s : m_s)
            s = splitmix64(x);
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    // Uniform in [0, n) without modulo bias (rejection sampling); n == 0 gives 0.
    std::uint64_t below(std::uint64_t n)
    {
        if (n == 0)
            return 0;
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        std::uint64_t v = next();
        while (v >= limit)
            v = next();
        return v % n;
    }

    // Uniform in [0, 1) with 53 bits.
    double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

    // d scaled by a factor uniform in [1 - jitter, 1 + jitter], rounded to whole ms, >= 0.
    std::int64_t jittered(std::int64_t d, double jitter)
    {
        if (jitter <= 0 || d <= 0)
            return d < 0 ? 0 : d;
        const double f = 1.0 + jitter * (2.0 * unit() - 1.0);
        const auto v = static_cast<std::int64_t>(static_cast<double>(d) * f + 0.5);
        return v < 0 ? 0 : v;
    }

    // n characters from alphabet (k8s.io/apimachinery/pkg/util/rand.String uses
    // "bcdfghjklmnpqrstvwxz2456789" for generated names).
    std::string string(int n, const char *alphabet = "bcdfghjklmnpqrstvwxz2456789")
    {
        std::string a(alphabet);
        std::string out;
        for (int i = 0; i < n; ++i)
            out += a[below(a.size())];
        return out;
    }

    // RFC 4122 version-4 shaped UUID.
    std::string uuid()
    {
        static const char hex[] = "0123456789abcdef";
        std::uint64_t a = next(), b = next();
        std::string out;
        for (int i = 0; i < 32; ++i) {
            std::uint64_t &src = i < 16 ? a : b;
            int nibble = static_cast<int>(src & 0xF);
            src >>= 4;
            if (i == 12)
                nibble = 4;
            if (i == 16)
                nibble = 8 | (nibble & 3);
            if (i == 8 || i == 12 || i == 16 || i == 20)
                out += '-';
            out += hex[nibble];
        }
        return out;
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitmix64(std::uint64_t &x)
    {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    std::uint64_t m_s[4] = {};
};

} // namespace store
