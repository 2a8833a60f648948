#include "cli/print_text.h"

#include <cmath>
#include <cstdio>

namespace gpuerr::cli {
namespace {

std::string percent(double confidence) {
  return std::to_string(static_cast<int>(std::lround(confidence * 100))) + "%";
}

std::string label(const Entry& e) { return e.kind == Kind::kError ? e.category : kind_name(e.kind); }

void print_list(std::ostream& out, const char* heading, const std::vector<std::string>& items,
                bool numbered, const Style& style) {
  if (items.empty()) return;
  out << '\n' << style.label(heading) << '\n';
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string mark = "  " + (numbered ? std::to_string(i + 1) + ". " : "- ");
    out << mark << wrap(items[i], style.width, mark.size(), mark.size()) << '\n';
  }
}

// "   Figures: requested 20.00 MiB, total 15.78 GiB, ..." then the verdict.
void print_analysis(std::ostream& out, const query::Analysis& a) {
  out << "   Figures:";
  for (size_t i = 0; i < a.figures.size(); ++i)
    out << (i ? ", " : " ") << a.figures[i].first << ' ' << a.figures[i].second;
  out << '\n';
  if (!a.verdict.empty()) out << "   Reading: " << a.verdict << '\n';
}

}  // namespace

// "code xid:79; signature 'GPU has fallen off the bus'; 83% of the words; score 7.10"
std::string evidence(const query::Match& m) {
  std::string why;
  if (!m.code.empty()) why += "code " + m.code + "; ";
  if (!m.signature.empty()) why += "signature '" + m.signature + "'; ";
  char tail[64];
  std::snprintf(tail, sizeof tail, "%d%% of the words; score %.2f",
                static_cast<int>(std::lround(m.text_score * 100)), m.score);
  return why + tail;
}

void print_lookup_brief(std::ostream& out, const std::vector<Answer>& confident) {
  for (const Answer& a : confident) {
    char confidence[16];
    std::snprintf(confidence, sizeof confidence, "%.2f", a.match.confidence);
    out << a.entry.id << '\t' << confidence << '\t' << a.entry.title << '\t' << a.entry.layer
        << '\n';
  }
}

void print_lookup_text(std::ostream& out, const std::vector<Answer>& confident,
                       const std::vector<Answer>& closest, bool explain, const Style& style) {
  constexpr size_t kIndent = 10;  // "   First: "
  if (confident.empty()) {
    out << style.warn("No confident match.") << '\n';
    if (!closest.empty()) out << "Closest entries, all weak:\n";
    for (const Answer& a : closest) {
      out << "  " << a.entry.id << " (" << percent(a.match.confidence) << "): " << a.entry.title
          << '\n';
      if (explain) out << "    why: " << evidence(a.match) << '\n';
    }
    return;
  }
  for (size_t i = 0; i < confident.size(); ++i) {
    const Answer& a = confident[i];
    if (i) out << '\n';
    out << i + 1 << ". " << style.title(a.entry.title) << "  "
        << style.weak("[" + label(a.entry) + ", " + percent(a.match.confidence) + ", " +
                      a.entry.layer + "]")
        << '\n';
    if (const std::string first = first_action(a); !first.empty())
      out << "   " << style.action("First:") << ' ' << wrap(first, style.width, kIndent, kIndent)
          << '\n';
    if (a.match.analysis) print_analysis(out, *a.match.analysis);
    if (a.entry.poisons_context)
      out << "   Note:  "
          << wrap("this error breaks the CUDA context; errors after it are consequences",
                  style.width, kIndent, kIndent)
          << '\n';
    if (explain) out << "   Why:   " << wrap(evidence(a.match), style.width, kIndent, kIndent) << '\n';
    out << "   More:  " << style.weak("gpuerr show " + a.entry.id) << '\n';
  }
}

void print_entry_text(std::ostream& out, const Entry& e,
                      const std::vector<std::string>& referenced_by, const Style& style) {
  out << style.title(e.title) << '\n' << "id: " << e.id << "  kind: " << kind_name(e.kind);
  if (!e.category.empty()) out << "  category: " << e.category;
  out << "  layer: " << e.layer;
  out << '\n';
  if (!e.env_name.empty()) out << "variable: " << e.env_name << '\n';
  if (!e.env_values.empty()) out << "values: " << e.env_values << '\n';
  if (!e.env_default.empty()) out << "default: " << e.env_default << '\n';
  if (!e.codes.empty()) {
    out << "codes:";
    for (const std::string& c : e.codes) out << ' ' << c;
    out << '\n';
  }
  if (e.kind == Kind::kError) {
    out << "poisons the CUDA context: " << (e.poisons_context ? "yes" : "no") << '\n';
    out << "hardware cause: " << e.hardware << '\n';
    if (!e.hardware_evidence.empty()) out << "hardware evidence: " << e.hardware_evidence << '\n';
  }
  print_list(out, "First actions:", e.first_actions, true, style);
  if (!e.body_markdown.empty()) out << '\n' << e.body_markdown;
  if (!e.body_markdown.empty() && e.body_markdown.back() != '\n') out << '\n';
  std::vector<std::string> examples;
  for (const Example& x : e.examples)
    examples.push_back(x.source.empty() ? x.text : x.text + "  <" + x.source + ">");
  print_list(out, "Example messages:", examples, false, style);
  print_list(out, "Related:", e.related, false, style);
  print_list(out, "Referenced by:", referenced_by, false, style);
  std::vector<std::string> sources;
  for (const Source& s : e.sources) sources.push_back(s.title + " <" + s.url + ">");
  print_list(out, "Sources:", sources, false, style);
}

void print_entry_list_text(std::ostream& out, const std::vector<Entry>& entries) {
  for (const Entry& e : entries) out << e.id << "  [" << label(e) << "]  " << e.title << '\n';
}

}  // namespace gpuerr::cli
