// Speech straight through libespeak-ng: the fallback when no speech-dispatcher runs, and a
// WAV-file mode (one file per utterance) for tests, recordings and the latency benchmark.
// libespeak-ng has one global synthesizer per process: at most one EspeakSynthesizer may
// exist at a time (a second open_espeak() fails with "espeak-ng is already in use").
#pragma once

#include "base/expected.hpp"
#include "speech/speech_queue.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

namespace eboard::speech {

/// espeak-ng playing on the default audio device (espeak-ng's own audio output). Errors:
/// "espeak-ng: cannot initialise (no data?)", "espeak-ng is already in use".
[[nodiscard]] Expected<std::unique_ptr<Synthesizer>> open_espeak();

/// espeak-ng writing each utterance to `<dir>/<NNNNNN>.wav` (16-bit mono PCM at espeak-ng's
/// rate, 22050 Hz), with its text in `<NNNNNN>.txt` ("language<TAB>text\n"); numbered from
/// 000001 in the order said. The .txt is written first, and each file appears whole (written
/// under a temporary name, then renamed). `dir` is created if missing.
[[nodiscard]] Expected<std::unique_ptr<Synthesizer>>
open_espeak_wav(const std::filesystem::path& dir);

/// For the benchmark: the time from the last speak() call to espeak-ng's first audio samples
/// in WAV mode (the synthesizer's own delay); nullopt before any or in playback mode.
[[nodiscard]] std::optional<std::chrono::nanoseconds> espeak_last_first_audio(const Synthesizer& s);

} // namespace eboard::speech
