// Speech through speech-dispatcher (libspeechd, SSIP), the Linux accessibility standard: the
// user's screen reader settings (voice, rate, audio device) apply, and eboardd's speech
// queues with the screen reader's instead of talking over it.
#pragma once

#include "base/expected.hpp"
#include "speech/speech_queue.hpp"

#include <memory>
#include <string>

namespace eboard::speech {

/// Connects to a running speech-dispatcher without starting one (no autospawn: eboardd falls
/// back to espeak-ng instead, open.hpp). `address` as SPEECHD_ADDRESS writes it:
/// "unix_socket:/run/user/1000/speech-dispatcher/speechd.sock", "inet_socket:HOST:PORT"; ""
/// = libspeechd's default (SPEECHD_ADDRESS, else the user's socket). The error says why the
/// connection failed (libspeechd's message). When a request fails later (speech-dispatcher
/// restarted), the synthesizer connects again once and repeats it.
[[nodiscard]] Expected<std::unique_ptr<Synthesizer>> open_speechd(const std::string& address);

} // namespace eboard::speech
