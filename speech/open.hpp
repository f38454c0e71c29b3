// Picks the speech output from the configuration (`--speech`, docs/configuration.md).
#pragma once

#include "base/expected.hpp"
#include "speech/speech_queue.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace eboard::speech {

/// Opens the output `backend` names:
///   "auto"     speech-dispatcher when one runs at `speechd_address`, else espeak-ng direct;
///   "speechd"  speech-dispatcher only (error if none runs);
///   "espeak"   espeak-ng direct on the default audio device;
///   "wav:DIR"  espeak-ng into numbered WAV files in DIR (tests, recordings);
///   "none"     no speech: returns nullptr.
/// `note` gets one line for the log saying what was chosen and, for "auto", why.
/// Errors: "unknown speech output 'x'", and the backend's own error.
[[nodiscard]] Expected<std::unique_ptr<SpeechQueue>>
open_speech(std::string_view backend, const std::string& speechd_address, std::string& note);

/// True if `backend` is one open_speech() knows ("wav:" needs a directory after it).
[[nodiscard]] bool valid_speech_backend(std::string_view backend) noexcept;

} // namespace eboard::speech
