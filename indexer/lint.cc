#include "indexer/lint.h"

#include <algorithm>
#include <map>
#include <set>

#include "indexer/limits.h"
#include "indexer/signature.h"

namespace gpuerr::indexer {
namespace {

int field_line(const ParsedEntry& p, const char* field) {
  auto it = p.field_lines.find(field);
  return it == p.field_lines.end() ? 1 : it->second;
}

void check_duplicates(const std::vector<ParsedEntry>& entries, std::vector<Diagnostic>& out) {
  std::map<std::pair<std::string, std::string>, const ParsedEntry*> seen;  // (layer, id)
  for (const ParsedEntry& p : entries) {
    if (p.entry.id.empty()) continue;
    auto [it, fresh] = seen.emplace(std::make_pair(p.entry.layer, p.entry.id), &p);
    if (!fresh)
      out.push_back({p.entry.file, field_line(p, "id"),
                     "duplicate id '" + p.entry.id + "', first defined in " + it->second->entry.file});
  }
}

void check_related(const std::vector<ParsedEntry>& entries, std::vector<Diagnostic>& out) {
  std::set<std::string> ids;
  for (const ParsedEntry& p : entries) ids.insert(p.entry.id);
  for (const ParsedEntry& p : entries) {
    for (size_t i = 0; i < p.entry.related.size(); ++i) {
      const std::string& r = p.entry.related[i];
      if (!ids.count(r))
        out.push_back({p.entry.file, p.related_lines.at(i), "unknown related id '" + r + "'"});
    }
  }
}

// A code names one entry; two entries claiming it would both be "certain". Within a layer that
// is a problem; an overlay that redefines the same id takes the code over legitimately.
void check_codes(const std::vector<ParsedEntry>& entries, std::vector<Diagnostic>& out) {
  std::map<std::string, const ParsedEntry*> owner;  // lower-case code -> first entry with it
  for (const ParsedEntry& p : entries) {
    for (const std::string& code : p.entry.codes) {
      auto [it, fresh] = owner.emplace(code_key(code), &p);
      if (!fresh && it->second->entry.id != p.entry.id)
        out.push_back({p.entry.file, field_line(p, "codes"),
                       "code '" + code + "' is also a code of '" + it->second->entry.id + "' (" +
                           it->second->entry.file + ")"});
    }
  }
}

// Returns false when a signature does not compile, so the examples are not checked against a
// set that is missing one.
bool check_signatures(const ParsedEntry& p, std::vector<Diagnostic>& out) {
  bool all_compile = true;
  for (size_t i = 0; i < p.entry.signatures.size(); ++i) {
    const std::string why = signature_problem(p.entry.signatures[i]);
    if (why.empty()) continue;
    out.push_back({p.entry.file, p.signature_lines.at(i),
                   "signature '" + p.entry.signatures[i] + "' does not compile: " + why});
    all_compile = false;
  }
  return all_compile;
}

void check_examples(const ParsedEntry& p, std::vector<Diagnostic>& out) {
  if (p.entry.signatures.empty()) return;
  const SignatureSet set(p.entry.signatures);
  for (size_t i = 0; i < p.entry.examples.size(); ++i)
    if (set.match(p.entry.examples[i].text).empty())
      out.push_back({p.entry.file, p.example_lines.at(i),
                     "example '" + p.entry.examples[i].text +
                         "' matches none of the entry's signatures"});
}

}  // namespace

std::vector<Diagnostic> lint(const std::vector<ParsedEntry>& entries) {
  std::vector<Diagnostic> out;
  check_duplicates(entries, out);
  check_related(entries, out);
  check_codes(entries, out);
  for (const ParsedEntry& p : entries)
    if (check_signatures(p, out)) check_examples(p, out);
  return out;
}

Catalogue read_catalogue(const std::vector<std::string>& dirs) {
  std::vector<ParsedEntry> parsed;
  Catalogue out;
  std::set<std::string> names;
  for (const std::string& dir : dirs) {
    const std::string base = layer_name(dir, out.problems);
    std::string name = base;
    for (int n = 2; !names.insert(name).second; ++n) name = base + "#" + std::to_string(n);
    KbContent layer = load_kb(dir, name);
    std::move(layer.entries.begin(), layer.entries.end(), std::back_inserter(parsed));
    out.problems.insert(out.problems.end(), layer.problems.begin(), layer.problems.end());
    out.documented.insert(out.documented.end(), layer.documented.begin(), layer.documented.end());
  }
  if (parsed.size() > limits::kMaxEntries)
    out.problems.push_back({dirs.empty() ? "" : dirs.back(), 0,
                            std::to_string(parsed.size()) + " entries; an index holds at most " +
                                std::to_string(limits::kMaxEntries)});
  const std::vector<Diagnostic> cross = lint(parsed);
  out.problems.insert(out.problems.end(), cross.begin(), cross.end());
  std::stable_sort(out.problems.begin(), out.problems.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.file, a.line) < std::tie(b.file, b.line);
                   });
  std::map<std::string, Entry> by_id;  // a later layer replaces an earlier entry of the same id
  for (ParsedEntry& p : parsed) {
    if (p.entry.id.empty()) continue;
    auto [it, fresh] = by_id.try_emplace(p.entry.id);
    if (!fresh && it->second.layer != p.entry.layer)
      out.overrides.push_back({p.entry.file, 1, "entry '" + p.entry.id + "' of layer '" +
                                                    p.entry.layer + "' replaces the one of layer '" +
                                                    it->second.layer + "' (" + it->second.file + ")"});
    it->second = std::move(p.entry);
  }
  for (auto& [id, entry] : by_id) out.entries.push_back(std::move(entry));
  return out;
}

}  // namespace gpuerr::indexer
