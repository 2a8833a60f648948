// Build step: compiles triage's cues (query/cues.h) into Vectorscan databases and writes them as
// a C++ source file (query/cue_database.h), so that gpuerr links only Vectorscan's runtime: its
// compiler is 5 MB of code that every process, lookups too, would load and relocate at start.
// Usage: gpuerr_compile_cues OUT.cc
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <hs/hs.h>

#include "query/cues.h"

namespace {

// The cues compiled for `platform` and serialized, or nullopt having said why not.
std::optional<std::string> compiled_for(const hs_platform_info_t& platform) {
  using gpuerr::query::kCues;
  std::vector<unsigned> flags(kCues.size(), HS_FLAG_CASELESS), ids(kCues.size(), 0);
  hs_database_t* db = nullptr;
  hs_compile_error_t* error = nullptr;
  if (hs_compile_multi(kCues.data(), flags.data(), ids.data(), kCues.size(), HS_MODE_BLOCK,
                       &platform, &db, &error) != HS_SUCCESS) {
    std::fprintf(stderr, "gpuerr_compile_cues: %s\n", error ? error->message : "compile failed");
    hs_free_compile_error(error);
    return std::nullopt;
  }
  char* bytes = nullptr;
  size_t size = 0;
  const bool serialized = hs_serialize_database(db, &bytes, &size) == HS_SUCCESS;
  hs_free_database(db);
  if (!serialized) {
    std::fprintf(stderr, "gpuerr_compile_cues: the compiled cues could not be serialized\n");
    return std::nullopt;
  }
  std::string copy(bytes, size);
  std::free(bytes);  // (Vectorscan's allocator is malloc unless one is set)
  return copy;
}

void write_array(std::ostream& out, const char* name, const std::string& bytes) {
  out << "const unsigned char " << name << "[] = {";
  for (size_t i = 0; i < bytes.size(); ++i)
    out << (i % 16 == 0 ? "\n   " : "") << ' ' << static_cast<int>(static_cast<unsigned char>(bytes[i]))
        << ',';
  out << "\n};\n\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gpuerr_compile_cues OUT.cc\n");
    return 2;
  }
  // Not for the CPU that builds: a package is built on one machine and run on others, and a
  // database for features a CPU lacks is refused there. One for every x86-64 CPU Vectorscan
  // runs on, and one for CPUs with AVX2, which scans a quarter faster (bench/README.md).
  const std::optional<std::string> any_cpu = compiled_for({HS_TUNE_FAMILY_GENERIC, 0, 0, 0});
  const std::optional<std::string> avx2 =
      compiled_for({HS_TUNE_FAMILY_GENERIC, HS_CPU_FEATURES_AVX2, 0, 0});
  if (!any_cpu || !avx2) return 1;

  // Written beside the output and renamed over it: a failed build leaves no half-written file.
  const std::filesystem::path out = argv[1];
  const std::filesystem::path partial = out.string() + ".partial";
  {
    std::ofstream file(partial);
    file << "// Written by query/compile_cues.cc when gpuerr is built (see query/cue_database.h).\n"
            "#include \"query/cue_database.h\"\n\nnamespace gpuerr::query {\nnamespace {\n\n";
    write_array(file, "kAnyCpu", *any_cpu);
    write_array(file, "kAvx2", *avx2);
    file << "}  // namespace\n\n"
            "extern const std::span<const unsigned char> kCueDatabaseAnyCpu = kAnyCpu;\n"
            "extern const std::span<const unsigned char> kCueDatabaseAvx2 = kAvx2;\n\n"
            "}  // namespace gpuerr::query\n";
    if (!file.flush()) {
      std::fprintf(stderr, "gpuerr_compile_cues: cannot write %s\n", partial.c_str());
      return 1;
    }
  }
  std::error_code ec;
  std::filesystem::rename(partial, out, ec);
  if (ec) {
    std::fprintf(stderr, "gpuerr_compile_cues: cannot rename %s: %s\n", partial.c_str(),
                 ec.message().c_str());
    return 1;
  }
  return 0;
}
