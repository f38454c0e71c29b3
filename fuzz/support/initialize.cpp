// Linked into every libFuzzer target: one-time set-up before the first input, so that its
// cost is not charged to that input. The move-generation tables (rules/bitboard.hpp) are built
// lazily on first use; under the fuzzer's instrumentation on a loaded machine that took more
// than the 30 s per-input time limit and was reported as a hang of the first input.
#include "rules/bitboard.hpp"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
    eboard::bitboards::init_bitboards();
    return 0;
}
