#include "site/search_index.h"

#include <map>
#include <nlohmann/json.hpp>

#include "indexer/error.h"
#include "indexer/indexed_text.h"
#include "indexer/signature.h"
#include "site/js_regex.h"
#include "site/layout.h"
#include "site/words.h"

namespace gpuerr::site {
namespace {

using Json = nlohmann::ordered_json;

// Each word of an entry's fields with its weight summed, field by field as the indexer's
// make_document() weighs them.
std::map<std::string, unsigned> weighted_words(const Entry& e) {
  std::map<std::string, unsigned> out;
  auto field = [&](const std::string& text, unsigned weight) {
    for (const std::string& w : search_words(text)) out[w] += weight;
  };
  for_each_indexed_field(e, field);
  return out;
}

Json entry_json(const Entry& e) {
  return {{"id", e.id},
          {"kind", kind_name(e.kind)},
          {"title", e.title},
          {"category", e.category},
          {"url", entry_path(e.id)},
          {"first", e.first_actions.empty() ? "" : e.first_actions.front()},
          {"role", e.role}};
}

}  // namespace

std::string search_index_js(const Catalogue& catalogue) {
  Json entries = Json::array(), signatures = Json::array(), lengths = Json::array();
  Json codes = Json::object(), terms = Json::object();
  int untranslated = 0;
  for (size_t i = 0; i < catalogue.entries.size(); ++i) {
    const Entry& e = catalogue.entries[i];
    entries.push_back(entry_json(e));
    unsigned length = 0;
    for (const auto& [word, weight] : weighted_words(e)) {
      Json& postings = terms[word];
      postings.push_back(i);
      postings.push_back(weight);
      length += weight;
    }
    lengths.push_back(length);
    if (e.kind != Kind::kError) continue;
    for (const std::string& code : e.codes) {
      Json& ids = codes[code_key(code)];
      if (ids.empty() || ids.back() != i) ids.push_back(i);
    }
    for (const std::string& s : e.signatures) {
      std::optional<JsRegex> re;
      try {
        re = js_regex(signature_to_regex(s));
      } catch (const Error&) {  // malformed placeholders: the lint reports them, lookup skips them
      }
      if (!re) {
        ++untranslated;
        continue;
      }
      signatures.push_back({i, re->source, re->flags, signature_anchor(s), signature_letters(s)});
    }
  }
  const Json index = {{"format", 1},
                      {"entries", entries},
                      {"codes", codes},
                      {"signatures", signatures},
                      {"untranslated", untranslated},
                      {"terms", terms},
                      {"lengths", lengths},
                      {"stop", stop_words()}};
  return "window.GPUERR_SEARCH = " + index.dump(-1, ' ', false, Json::error_handler_t::replace) +
         ";\n";
}

}  // namespace gpuerr::site
