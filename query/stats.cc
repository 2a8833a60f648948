#include "query/stats.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpuerr::query {
namespace {

// The family of an entry: that of its first code a coverage list names.
std::string family_of(const Entry& e, const std::map<std::string, std::string>& family_by_code) {
  if (e.kind != Kind::kError) return kind_name(e.kind);
  for (const std::string& code : e.codes)
    if (auto it = family_by_code.find(code_key(code)); it != family_by_code.end()) return it->second;
  return "other: " + e.category;
}

std::map<std::string, std::string> families_by_code(const std::vector<DocumentedCode>& documented) {
  std::map<std::string, std::string> out;
  for (const DocumentedCode& d : documented) out.emplace(code_key(d.code), d.family);
  return out;
}

std::string page_of(const std::string& url) { return url.substr(0, url.find('#')); }

}  // namespace

bool has_two_sourced_examples(const Entry& e) {
  for (const Example& a : e.examples)
    for (const Example& b : e.examples)
      if (!a.source.empty() && !b.source.empty() && a.text != b.text &&
          page_of(a.source) != page_of(b.source))
        return true;
  return false;
}

std::map<std::string, std::string> entry_families(const Store& store) {
  const std::map<std::string, std::string> family_by_code = families_by_code(store.documented_codes());
  std::map<std::string, std::string> out;
  for (const Entry& e : store.entries()) out.emplace(e.id, family_of(e, family_by_code));
  return out;
}

std::vector<FamilyStats> catalogue_stats(const Store& store) {
  const std::vector<DocumentedCode> documented = store.documented_codes();
  const std::map<std::string, std::string> family_by_code = families_by_code(documented);
  std::map<std::string, FamilyStats> by_family;
  for (const DocumentedCode& d : documented) {
    FamilyStats& f = by_family[d.family];
    f.family = d.family;
    ++f.documented;
  }
  std::set<std::string> present;
  for (const Entry& e : store.entries()) {
    for (const std::string& code : e.codes) present.insert(code_key(code));
    const std::string family = family_of(e, family_by_code);
    FamilyStats& f = by_family[family];
    f.family = family;
    ++f.entries;
    if (e.kind == Kind::kError && !has_two_sourced_examples(e)) f.thinly_sourced.push_back(e.id);
  }
  for (const DocumentedCode& d : documented)
    if (!present.count(code_key(d.code))) by_family[d.family].missing.push_back(d);
  std::vector<FamilyStats> out;
  for (auto& [name, f] : by_family) out.push_back(std::move(f));
  std::stable_partition(out.begin(), out.end(), [](const FamilyStats& f) { return f.documented > 0; });
  return out;
}

}  // namespace gpuerr::query
