// Whether this test binary is built with AddressSanitizer (scripts/test's sanitizer and fuzz
// passes): bounds on memory or on work per CPU second are the Release build's.
#pragma once

namespace eboard::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
inline constexpr bool kSanitized = __has_feature(address_sanitizer);
#else
inline constexpr bool kSanitized = false;
#endif

} // namespace eboard::test
