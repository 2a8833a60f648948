// What the printers receive: a lookup match together with the entry it names.
#pragma once

#include <string>
#include <vector>

#include "indexer/entry.h"
#include "query/analyse.h"
#include "query/lookup.h"

namespace gpuerr::cli {

struct Answer {
  query::Match match;
  Entry entry;
};

/// The action to take first: what the message's figures call for when they decided the case (an
/// out-of-memory report's exhaustion or fragmentation), else the entry's first action.
inline std::string first_action(const Answer& a) {
  if (a.match.analysis) {
    std::string figures = query::action_from_figures(a.match.analysis->finding,
                                                     a.match.analysis->action);
    if (!figures.empty()) return figures;
  }
  return a.entry.first_actions.empty() ? "" : a.entry.first_actions.front();
}

}  // namespace gpuerr::cli
