// Identifier extraction: the error names and numbers in a text that can name a catalogue entry
// on their own (cudaErrorAssert, CUBLAS_STATUS_NOT_INITIALIZED, "CUDA error 700", "Xid 79").
// Pure; the store decides which of them the catalogue knows.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuerr::query {

/// Candidate code keys in `text`, lower-case, de-duplicated, in order of first appearance:
/// identifiers that look like library error names (CamelCase or with '_'), and numbers read in
/// a context that names their family, as "cuda:N", "cu:N" or "xid:N". Empty when there is none.
std::vector<std::string> code_keys(std::string_view text);

}  // namespace gpuerr::query
