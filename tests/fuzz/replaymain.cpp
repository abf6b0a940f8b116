// Replays fuzz inputs without libFuzzer, so the normal build checks them on every test run:
// every file named on the command line, and every file in a directory named there, goes once
// through LLVMFuzzerTestOneInput, in name order. A directory that does not exist is skipped (a
// target may have no regression inputs yet); finding no input at all is an error, so a wrong path
// cannot make the test pass vacuously. Files whose names start with '.' or end in ".md" are not
// inputs.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

bool isInput(const std::filesystem::path &p)
{
    const std::string name = p.filename().string();
    return !name.empty() && name.front() != '.' && p.extension() != ".md";
}

} // namespace

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            for (const auto &entry : fs::directory_iterator(arg))
                if (entry.is_regular_file() && isInput(entry.path()))
                    files.push_back(entry.path());
        } else if (fs::is_regular_file(arg, ec)) {
            files.push_back(arg);
        } else if (fs::exists(arg, ec)) {
            std::fprintf(stderr, "%s: neither a file nor a directory\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "no fuzz inputs found\n");
        return 2;
    }
    for (const auto &file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::fprintf(stderr, "%s: cannot read\n", file.c_str());
            return 2;
        }
        // Named before it runs: a crash then points at its input.
        std::fprintf(stderr, "replaying %s (%zu bytes)\n", file.c_str(), bytes.size());
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
    }
    std::fprintf(stderr, "%zu inputs replayed\n", files.size());
    return 0;
}
