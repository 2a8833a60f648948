// The limits gpuerr enforces, in one place (docs/robustness.md lists them with what happens past
// each). Past a limit the user gets a one-line message, never an abort or a silent truncation.
#pragma once

#include <cstddef>

namespace gpuerr::limits {

/// The largest message `gpuerr lookup` reads (arguments or standard input): a paste, not a log.
inline constexpr size_t kMaxLookupBytes = 1 << 20;  // 1 MiB

/// The largest kb/ file the indexer reads.
inline constexpr size_t kMaxKbFileBytes = 1 << 20;  // 1 MiB

/// The most entries one index may hold, all layers together.
inline constexpr size_t kMaxEntries = 100000;

/// The longest title, signature, example or first action, in bytes.
inline constexpr size_t kMaxFieldBytes = 4096;

/// The most instructions one signature may compile to (RE2's program size). A lookup compiles
/// each signature it tries; a counted repeat such as `[^\n]{0,80}` unrolls into hundreds of
/// instructions and cost every lookup that tried it a quarter of a millisecond.
inline constexpr int kMaxSignatureProgram = 500;

}  // namespace gpuerr::limits
