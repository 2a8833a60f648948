// `gpuerr eval FILE|DIR...`: ranks labelled messages (tests/eval/corpus/*.yaml) with lookup and
// with a plain Xapian baseline, and prints top-1, top-3, MRR, "no confident match" precision and
// recall, per family, plus a calibration table and the misses.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>
#include <yaml-cpp/yaml.h>

#include "cli/print_json.h"
#include "cli/runner.h"
#include "indexer/error.h"
#include "query/evaluate.h"
#include "query/stats.h"

namespace gpuerr::cli {
namespace {

namespace fs = std::filesystem;

struct EvalOptions {
  std::vector<std::string> paths;  // YAML files, or folders of them
  int misses_shown = 20;
};

// The YAML files named, folders expanded to their *.yaml files in name order.
std::vector<std::string> case_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      out.push_back(p);
      continue;
    }
    std::vector<std::string> inside;
    for (const fs::directory_entry& e : fs::directory_iterator(p, ec))
      if (e.path().extension() == ".yaml") inside.push_back(e.path().string());
    if (ec) throw Error("reading folder '" + p + "': " + ec.message());
    std::sort(inside.begin(), inside.end());
    out.insert(out.end(), inside.begin(), inside.end());
  }
  return out;
}

// One case from one item of a case file; throws naming file:line for anything malformed.
query::EvalCase read_case(const YAML::Node& item, const std::string& file,
                          const std::set<std::string>& ids) {
  const std::string where = file + ":" + std::to_string(item.Mark().line + 1);
  auto fail = [&](const std::string& why) { throw Error("eval case '" + where + "': " + why); };
  if (!item.IsMap()) fail("expected a mapping with text, expect and source");
  for (const auto& field : item) {
    const std::string key = field.first.as<std::string>();
    if (key != "text" && key != "expect" && key != "source" && key != "note" && key != "derived")
      fail("unknown field '" + key + "' (known: text, expect, source, note, derived)");
  }
  if (!item["text"] || !item["text"].IsScalar() || item["text"].as<std::string>().empty())
    fail("'text' must be a non-empty string");
  if (!item["source"] || !item["source"].IsScalar() || item["source"].as<std::string>().empty())
    fail("'source' must name where the text came from");
  if (!item["expect"] || !item["expect"].IsSequence())
    fail("'expect' must be a list of entry ids ([] for a message that should match nothing)");
  query::EvalCase c{where, item["text"].as<std::string>(), {}};
  for (const YAML::Node& id : item["expect"]) {
    if (!id.IsScalar()) fail("'expect' must hold entry ids");
    if (!ids.count(id.as<std::string>())) fail("no entry '" + id.as<std::string>() + "' in the index");
    c.expect.push_back(id.as<std::string>());
  }
  return c;
}

std::vector<query::EvalCase> read_cases(const std::string& file, const std::set<std::string>& ids) {
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    throw Error("reading eval cases '" + file + "': cannot open the file");
  } catch (const YAML::Exception& e) {
    throw Error("reading eval cases '" + file + ":" + std::to_string(e.mark.line + 1) +
                "': " + e.msg);
  }
  if (!doc.IsSequence()) throw Error("reading eval cases '" + file + "': expected a list of cases");
  std::vector<query::EvalCase> out;
  for (const YAML::Node& item : doc) out.push_back(read_case(item, file, ids));
  return out;
}

std::string percent(int part, int whole) {
  if (whole == 0) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << 100.0 * part / whole << '%';
  return s.str();
}

std::string mrr(const query::Figures& f) {
  if (f.positives == 0) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << f.reciprocal_ranks / f.positives;
  return s.str();
}

void print_row(const query::Figures& ours, const query::Figures& base) {
  std::cout << std::left << std::setw(26) << ours.family << std::right << std::setw(6)
            << ours.positives << std::setw(9) << percent(ours.top1, ours.positives) << std::setw(9)
            << percent(ours.top3, ours.positives) << std::setw(8) << mrr(ours) << "  |"
            << std::setw(8) << percent(base.top1, base.positives) << std::setw(9)
            << percent(base.top3, base.positives) << std::setw(8) << mrr(base) << '\n';
}

void print_quiet(const char* who, const query::Figures& f) {
  const int quiet = f.negatives_unanswered + f.positives_unanswered;
  std::cout << "  " << std::left << std::setw(10) << who << std::right << "negatives "
            << f.negatives << ", answered confidently " << f.negatives - f.negatives_unanswered
            << " (" << percent(f.negatives - f.negatives_unanswered, f.negatives)
            << ");  \"no confident match\": recall " << percent(f.negatives_unanswered, f.negatives)
            << ", precision " << percent(f.negatives_unanswered, quiet) << '\n';
}

void print_text(const query::EvalReport& ours, const query::EvalReport& base, int misses_shown) {
  std::cout << std::left << std::setw(26) << "family" << std::right << std::setw(6) << "cases"
            << std::setw(9) << "top-1" << std::setw(9) << "top-3" << std::setw(8) << "MRR"
            << "  |" << std::setw(8) << "base-1" << std::setw(9) << "base-3" << std::setw(8)
            << "b-MRR" << '\n';
  for (size_t i = 0; i < ours.families.size(); ++i) print_row(ours.families[i], base.families[i]);
  print_row(ours.overall, base.overall);
  std::cout << "\nnegatives (should get \"no confident match\"):\n";
  print_quiet("gpuerr", ours.overall);
  print_quiet("baseline", base.overall);
  std::cout << "\ncalibration (gpuerr's first answer, by confidence):\n";
  for (const query::CalibrationBin& b : ours.calibration)
    if (b.answers > 0)
      std::cout << "  " << std::fixed << std::setprecision(1) << b.low << "-" << b.high
                << std::setw(7) << b.answers << " answers, right " << percent(b.right, b.answers)
                << '\n';
  std::cout << "\nmisses: " << ours.misses.size() << '\n';
  for (size_t i = 0; i < ours.misses.size() && static_cast<int>(i) < misses_shown; ++i) {
    const query::Miss& m = ours.misses[i];
    std::cout << "  " << m.where << "  expected " << (m.expect.empty() ? "nothing" : m.expect[0])
              << ", got";
    for (const std::string& id : m.got) std::cout << ' ' << id;
    std::cout << (m.got.empty() ? " nothing" : "") << " (" << std::setprecision(2) << m.confidence
              << (m.confident ? "" : ", not confident") << ")\n";
  }
}

nlohmann::ordered_json figures_json(const query::Figures& f) {
  return {{"family", f.family},
          {"positives", f.positives},
          {"top1", f.top1},
          {"top3", f.top3},
          {"mrr", f.positives ? f.reciprocal_ranks / f.positives : 0.0},
          {"positives_unanswered", f.positives_unanswered},
          {"negatives", f.negatives},
          {"negatives_unanswered", f.negatives_unanswered}};
}

nlohmann::ordered_json report_json(const query::EvalReport& r) {
  nlohmann::ordered_json families = nlohmann::ordered_json::array();
  for (const query::Figures& f : r.families) families.push_back(figures_json(f));
  nlohmann::ordered_json calibration = nlohmann::ordered_json::array();
  for (const query::CalibrationBin& b : r.calibration)
    calibration.push_back({{"low", b.low}, {"high", b.high}, {"answers", b.answers}, {"right", b.right}});
  nlohmann::ordered_json misses = nlohmann::ordered_json::array();
  for (const query::Miss& m : r.misses)
    misses.push_back({{"where", m.where}, {"expect", m.expect}, {"got", m.got},
                      {"confidence", m.confidence}, {"confident", m.confident}});
  return {{"overall", figures_json(r.overall)}, {"families", families},
          {"calibration", calibration}, {"misses", misses}};
}

// The baseline's figures in the same family order as ours, so the rows line up.
query::EvalReport aligned(query::EvalReport base, const query::EvalReport& ours) {
  std::vector<query::Figures> rows;
  for (const query::Figures& f : ours.families) {
    auto it = std::find_if(base.families.begin(), base.families.end(),
                           [&](const query::Figures& b) { return b.family == f.family; });
    rows.push_back(it == base.families.end() ? query::Figures{f.family} : *it);
  }
  base.families = std::move(rows);
  return base;
}

int run_eval(const GlobalOptions& global, const EvalOptions& options) {
  const query::Store store(index_dir(global));
  const std::vector<std::string> known = store.ids();
  const std::set<std::string> ids(known.begin(), known.end());
  std::vector<query::EvalCase> cases;
  for (const std::string& file : case_files(options.paths)) {
    std::vector<query::EvalCase> more = read_cases(file, ids);
    cases.insert(cases.end(), more.begin(), more.end());
  }
  if (cases.empty()) throw Error("no eval cases in the files given");
  const std::map<std::string, std::string> families = query::entry_families(store);
  const query::EvalReport ours = query::evaluate(
      cases, [&](std::string_view text) { return query::lookup_ranking(store, text); }, families);
  const query::EvalReport base = aligned(
      query::evaluate(
          cases, [&](std::string_view text) { return query::baseline_ranking(store, text); },
          families),
      ours);
  if (global.json)
    print_json(std::cout, {{"cases", cases.size()}, {"gpuerr", report_json(ours)},
                           {"baseline", report_json(base)}});
  else
    print_text(ours, base, options.misses_shown);
  return kExitOk;
}

}  // namespace

void add_eval_command(CLI::App& app, const GlobalOptions& global, Runner& run) {
  auto options = std::make_shared<EvalOptions>();
  CLI::App* sub = app.add_subcommand(
      "eval", "Measure lookup on labelled messages (YAML files or folders of them) against a "
              "plain Xapian baseline: top-1, top-3, MRR, negatives, calibration");
  sub->add_option("paths", options->paths, "Case files (*.yaml) or folders of them")->required();
  sub->add_option("--misses", options->misses_shown, "List at most this many misses (text output)")
      ->check(CLI::NonNegativeNumber);
  sub->callback([&global, &run, options] { run = [&global, options] { return run_eval(global, *options); }; });
}

}  // namespace gpuerr::cli
