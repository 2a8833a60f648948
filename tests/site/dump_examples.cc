// site_dump_examples INDEX_DIR EVAL_FILE...: prints, as one JSON object, what the engine makes
// of every kb example message and every labelled message of the evaluation files, so that
// tests/site/search_quality.js can measure the site's search against the same messages and check
// that it cleans and reads them as the engine does. A test tool, not part of gpuerr.
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "query/clean.h"
#include "query/identifiers.h"
#include "query/lookup.h"
#include "query/store.h"
#include "site/words.h"

namespace {

using gpuerr::query::Store;
using Json = nlohmann::ordered_json;

Json engine_view(const Store& store, const std::string& text) {
  const std::vector<gpuerr::query::Match> matches = gpuerr::query::lookup(store, text);
  Json top = Json::array();
  for (size_t i = 0; i < matches.size() && i < 3; ++i) top.push_back(matches[i].entry_id);
  const std::string shown = gpuerr::query::as_printed(text);
  std::set<std::string> signed_ids;
  for (const gpuerr::query::SignatureHit& hit : store.match_signatures(shown))
    signed_ids.insert(hit.entry_id);
  return {
      {"text", text},
      {"engine", top},
      {"engine_confident", !matches.empty() && matches[0].confidence >= gpuerr::query::kConfident},
      {"words", gpuerr::site::search_words(gpuerr::query::search_text(text))},
      {"code_keys", gpuerr::query::code_keys(shown)},
      {"signature_entries", signed_ids}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: site_dump_examples INDEX_DIR [EVAL_FILE...]\n";
    return 2;
  }
  const Store store(argv[1]);
  Json examples = Json::array(), cases = Json::array();
  for (const gpuerr::Entry& e : store.entries(gpuerr::Kind::kError))
    for (const gpuerr::Example& x : e.examples) {
      Json view = engine_view(store, x.text);
      view["expect"] = {e.id};
      examples.push_back(std::move(view));
    }
  for (int i = 2; i < argc; ++i)
    for (const YAML::Node& item : YAML::LoadFile(argv[i])) {
      Json view = engine_view(store, item["text"].as<std::string>());
      view["expect"] = Json::array();
      for (const YAML::Node& id : item["expect"]) view["expect"].push_back(id.as<std::string>());
      view["where"] = std::string(argv[i]);
      cases.push_back(std::move(view));
    }
  std::cout << Json{{"examples", examples}, {"eval", cases}}.dump(-1, ' ', false,
                                                                  Json::error_handler_t::replace)
            << '\n';
  return 0;
}
