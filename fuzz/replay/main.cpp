// A fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on each file named on the
// command line (a directory: on each file in it). The normal (gcc) build links every
// fuzz/<name>.cpp with this, so the seeds and the regression inputs of fuzz/corpus/ run in
// every ctest; the sanitizer build uses the libFuzzer binaries, which do the same given files.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run_one(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::printf("%s (%zu bytes)\n", file.c_str(), bytes.size());
    std::fflush(stdout); // named before it runs: a crash points at its input
    (void)LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

} // namespace

int main(int argc, char** argv) {
    int files = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path p(argv[i]);
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.is_regular_file()) run_one(e.path()), ++files;
        } else {
            run_one(p);
            ++files;
        }
    }
    std::printf("%d inputs, no crash\n", files);
    return files > 0 ? 0 : 1;
}
