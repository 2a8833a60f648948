// Writing a directory (an index, an exported site) so that readers see the old one or the new
// one, never half of one: build it in a temporary sibling, then swap it into place.
#pragma once

#include <filesystem>
#include <string>

namespace gpuerr {

/// A fresh name next to `out` (".NAME.tmp-PID-RANDOM") to build the new directory in.
std::filesystem::path temporary_sibling(const std::filesystem::path& out);

/// Puts `fresh` in place of `out`: one rename when `out` is absent or empty, else one atomic
/// exchange (Linux renameat2) after which the old directory is deleted. Throws gpuerr::Error
/// naming `what` ("index", "site") and `out` when it cannot.
void swap_into_place(const std::filesystem::path& fresh, const std::filesystem::path& out,
                     const std::string& what);

}  // namespace gpuerr
