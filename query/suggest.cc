#include "query/suggest.h"

#include <algorithm>
#include <cctype>

namespace gpuerr::query {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_name(const std::string& wanted, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = wanted.size() / 3 + 1;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(wanted, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

std::string unknown_id_message(const std::string& id, const std::vector<std::string>& ids) {
  const std::string near = closest_name(id, ids);
  return "no entry '" + id + "' in the index" +
         (near.empty() ? " (see 'gpuerr list')" : " (did you mean '" + near + "'?)");
}

}  // namespace gpuerr::query
