#include "cli/print_json.h"

#include <cmath>

namespace gpuerr::cli {

namespace {

// {"kind": "memory", "figures": {"requested": "20.00 MiB", ...}, "verdict": "..."}, or null.
nlohmann::ordered_json analysis_json(const std::optional<query::Analysis>& a) {
  if (!a) return nullptr;
  nlohmann::ordered_json figures = nlohmann::ordered_json::object();
  for (const auto& [name, value] : a->figures) figures[name] = value;
  return {{"kind", a->kind},       {"line", a->line},       {"figures", figures},
          {"verdict", a->verdict}, {"finding", a->finding}, {"action", a->action}};
}

}  // namespace

nlohmann::ordered_json lookup_json(const std::string& query, const std::vector<Answer>& confident) {
  nlohmann::ordered_json matches = nlohmann::ordered_json::array();
  for (const Answer& a : confident) {
    const Entry& e = a.entry;
    matches.push_back({
        {"id", e.id},
        {"title", e.title},
        {"category", e.category},
        {"layer", e.layer},
        {"confidence", std::round(a.match.confidence * 1000) / 1000},
        {"score", std::round(a.match.score * 1000) / 1000},
        {"first_action", first_action(a)},
        {"actions", e.first_actions},
        {"codes", e.codes},
        {"poisons_context", e.poisons_context},
        {"hardware", e.hardware},
        {"evidence",
         {{"code", a.match.code},
          {"signature", a.match.signature},
          {"text_score", std::round(a.match.text_score * 1000) / 1000}}},
        {"analysis", analysis_json(a.match.analysis)},
    });
  }
  return {{"query", query}, {"matches", matches}};
}

nlohmann::ordered_json entry_json(const Entry& e) {
  nlohmann::ordered_json sources = nlohmann::ordered_json::array();
  for (const Source& s : e.sources) sources.push_back({{"title", s.title}, {"url", s.url}});
  nlohmann::ordered_json examples = nlohmann::ordered_json::array();
  for (const Example& x : e.examples) examples.push_back({{"text", x.text}, {"source", x.source}});
  nlohmann::ordered_json out = {
      {"id", e.id},           {"kind", kind_name(e.kind)},
      {"title", e.title},     {"category", e.category},
      {"codes", e.codes},     {"signatures", e.signatures},
      {"poisons_context", e.poisons_context},
      {"hardware", e.hardware},
      {"hardware_evidence", e.hardware_evidence},
      {"actions", e.first_actions},
      {"related", e.related}, {"examples", examples},
      {"sources", sources},   {"body_markdown", e.body_markdown},
      {"layer", e.layer},
  };
  if (e.kind == Kind::kEnv)
    out.update({{"name", e.env_name}, {"values", e.env_values}, {"default", e.env_default}});
  return out;
}

nlohmann::ordered_json entries_json(const std::vector<Entry>& entries) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Entry& e : entries) out.push_back(entry_json(e));
  return out;
}

void print_json(std::ostream& out, const nlohmann::ordered_json& value) {
  out << value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

}  // namespace gpuerr::cli
