// Lookup on the real-message corpus (tests/eval/corpus) in the shapes that pastes arrive in:
// every message again with a launcher's or logger's prefix on each line, as records of a JSON
// logger, with Windows line ends or terminal colours, hard-wrapped, quoted, copied through a
// chat client, escaped for HTML, or among a training loop's chatter.
// None of these changes what the message says, so none may cost more than a point of top-1.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "query/evaluate.h"
#include "tests/support.h"

namespace gpuerr::query {
namespace {

constexpr double kMostLost = 0.01;  // of top-1, against the corpus as gathered

std::vector<EvalCase> corpus_positives() {
  std::vector<EvalCase> cases;
  const std::filesystem::path dir = std::filesystem::path(GPUERR_SOURCE_DIR) / "tests/eval/corpus";
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (file.path().extension() != ".yaml") continue;
    for (const YAML::Node& item : YAML::LoadFile(file.path().string())) {
      EvalCase c{file.path().filename().string(), item["text"].as<std::string>(), {}};
      for (const YAML::Node& id : item["expect"]) c.expect.push_back(id.as<std::string>());
      if (!c.expect.empty()) cases.push_back(std::move(c));
    }
  }
  return cases;
}

// `text` with `change` applied to each of its lines (a final line break stays one).
std::string each_line(const std::string& text,
                      const std::function<std::string(std::string)>& change) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += change(text.substr(start, end - start));
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
  return s;
}

double top1(const std::vector<EvalCase>& cases) {
  const EvalReport r = evaluate(
      cases, [](std::string_view text) { return lookup_ranking(test::bundled_store(), text); }, {});
  return static_cast<double>(r.overall.top1) / r.overall.positives;
}

struct Shape {
  std::string name;
  std::function<std::string(const std::string&)> apply;
};

// A line cut into pieces of at most `width` characters: anywhere, as a terminal or a log
// collector cuts it, or at a word's end, dropping that blank, as mail and `fmt` wrap text.
std::string hard_wrapped(const std::string& line, size_t width, bool at_words) {
  std::string out;
  size_t from = 0;
  while (line.size() - from > width) {
    size_t cut = from + width;
    if (at_words) {
      const size_t blank = line.rfind(' ', cut);
      if (blank != std::string::npos && blank > from) cut = blank;
    }
    out += line.substr(from, cut - from) + '\n';
    from = at_words && line[cut] == ' ' ? cut + 1 : cut;
  }
  return out + line.substr(from);
}

std::function<std::string(const std::string&)> prefixed(std::string prefix) {
  return [prefix](const std::string& t) {
    return each_line(t, [&](std::string line) { return prefix + line; });
  };
}

const Shape kShapes[] = {
    {"torchrun [rank3]:", prefixed("[rank3]:")},
    {"srun -l", prefixed("3: ")},
    {"mpirun --tag-output", prefixed("[1,3]<stderr>:")},
    {"kubectl logs --prefix", prefixed("[pod/trainer-0/pytorch] ")},
    {"Kubernetes log file", prefixed("2026-12-03T10:11:12.123456789Z stderr F ")},
    {"journal", prefixed("Dec 03 10:11:12 node17 python3[12345]: ")},
    {"ISO timestamp", prefixed("2026-12-03T10:11:12.123Z ")},
    {"glog", prefixed("E1203 10:11:12.123456 12345 worker.cc:42] ")},
    {"Ray worker", prefixed("\x1b[36m(RayWorkerWrapper pid=14390, ip=10.0.0.7)\x1b[0m ")},
    {"docker compose", prefixed("trainer-1  | ")},
    {"Markdown quote", prefixed("> ")},
    {"Docker json-file records",
     [](const std::string& t) {
       return each_line(t, [](std::string line) {
         return nlohmann::json{{"log", line + "\n"}, {"stream", "stderr"}}.dump(
             -1, ' ', false, nlohmann::json::error_handler_t::replace);
       });
     }},
    {"chatter around it: a progress bar before, wandb's lines after",
     [](const std::string& t) {
       std::string body = t;
       while (!body.empty() && body.back() == '\n') body.pop_back();
       return "Epoch 3:  42%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8f     | 420/1000 "
              "[12:01<16:35,  1.72s/it, loss=0.231]\n" +
              body +
              "\nwandb: Waiting for W&B process to finish... (failed 1).\n"
              "wandb: \xf0\x9f\x9a\x80 View run at https://wandb.ai/team/project/runs/3f9x2k1\n";
     }},
    {"hard-wrapped at 80 columns by a terminal",
     [](const std::string& t) {
       return each_line(t, [](std::string line) { return hard_wrapped(line, 80, false); });
     }},
    {"hard-wrapped at 80 columns at word ends, as mail does",
     [](const std::string& t) {
       return each_line(t, [](std::string line) { return hard_wrapped(line, 80, true); });
     }},
    {"Windows line ends", [](const std::string& t) { return replace_all(t, "\n", "\r\n"); }},
    {"chat client: curly quotes, no-break spaces",
     [](const std::string& t) {
       std::string s = replace_all(t, "'", "\xe2\x80\x99");
       s = replace_all(s, ": ", ":\xc2\xa0");
       return replace_all(s, ", ", ",\xc2\xa0");
     }},
    {"escaped for HTML or XML: a page's source, a JUnit report",
     [](const std::string& t) {
       std::string s = replace_all(t, "&", "&amp;");
       s = replace_all(replace_all(s, "<", "&lt;"), ">", "&gt;");
       return replace_all(replace_all(s, "\"", "&quot;"), "'", "&#x27;");
     }},
};

}  // namespace

TEST_SUITE("query") {

TEST_CASE("lookup keeps its top-1 on the corpus in the shapes pastes arrive in") {
  const std::vector<EvalCase> plain = corpus_positives();
  REQUIRE(plain.size() >= 700);
  const double want = top1(plain);
  for (const Shape& shape : kShapes) {
    std::vector<EvalCase> changed = plain;
    for (EvalCase& c : changed) c.text = shape.apply(c.text);
    const double got = top1(changed);
    CAPTURE(shape.name);
    CAPTURE(want);
    CHECK(got >= want - kMostLost);
  }
}

}  // TEST_SUITE

}  // namespace gpuerr::query
