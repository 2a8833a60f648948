// "Did you mean": the closest known name to a mistyped one, for error messages.
#pragma once

#include <string>
#include <vector>

namespace gpuerr::query {

/// The candidate closest to `wanted` by edit distance, ignoring case, if it is close enough to
/// be a plausible typo (at most a third of the name differs); empty otherwise.
std::string closest_name(const std::string& wanted, const std::vector<std::string>& candidates);

/// "no entry 'X' in the index" plus " (did you mean 'Y'?)" when one is close, or a pointer to
/// `gpuerr list` when none is.
std::string unknown_id_message(const std::string& id, const std::vector<std::string>& ids);

}  // namespace gpuerr::query
