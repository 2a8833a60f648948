// Triage's cues (query/cues.h) as Vectorscan databases, compiled when gpuerr is built: the
// bytes hs_serialize_database() gave, for hs_deserialize_database(). Defined in cue_database.cc
// of the build directory, which query/compile_cues.cc writes.
#pragma once

#include <span>

namespace gpuerr::query {

/// For any x86-64 CPU that Vectorscan runs on (SSSE3 and later).
extern const std::span<const unsigned char> kCueDatabaseAnyCpu;
/// For CPUs with AVX2, where it scans a quarter faster.
extern const std::span<const unsigned char> kCueDatabaseAvx2;

}  // namespace gpuerr::query
