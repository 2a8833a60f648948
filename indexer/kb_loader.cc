#include "indexer/kb_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <array>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "indexer/body.h"
#include "indexer/error.h"
#include "indexer/limits.h"

namespace gpuerr::indexer {
namespace {

namespace fs = std::filesystem;

enum class Shape { kText, kList, kBool, kSources, kExamples };

// Which fields each kind may hold; docs/authoring.md is the prose version of this table.
struct FieldSpec {
  std::string_view name;
  Shape shape;
  bool for_error, for_env, for_faq;
  bool required;
};

constexpr std::array kFields{
    FieldSpec{"id", Shape::kText, true, true, true, true},
    FieldSpec{"title", Shape::kText, true, true, true, true},
    FieldSpec{"category", Shape::kText, true, false, false, true},
    FieldSpec{"codes", Shape::kList, true, false, false, false},
    FieldSpec{"signatures", Shape::kList, true, false, false, true},
    FieldSpec{"poisons_context", Shape::kBool, true, false, false, false},
    FieldSpec{"hardware", Shape::kText, true, false, false, true},
    FieldSpec{"hardware_evidence", Shape::kText, true, false, false, false},
    FieldSpec{"role", Shape::kText, true, false, false, false},
    FieldSpec{"first_actions", Shape::kList, true, false, false, true},
    FieldSpec{"related", Shape::kList, true, true, true, false},
    FieldSpec{"examples", Shape::kExamples, true, false, false, true},
    FieldSpec{"sources", Shape::kSources, true, true, true, true},
    FieldSpec{"name", Shape::kText, false, true, false, true},
    FieldSpec{"values", Shape::kText, false, true, false, false},
    FieldSpec{"default", Shape::kText, false, true, false, false},
};

constexpr std::array<std::string_view, 7> kCategories{
    "application", "configuration", "hardware", "driver", "resource", "framework", "communication"};
constexpr std::array<std::string_view, 4> kHardware{"no", "possible", "likely", "yes"};
constexpr std::array<std::string_view, 6> kRoles{"cause",         "consequence", "memory-error",
                                                 "memory-notice", "warning",     "report"};

bool applies(const FieldSpec& f, Kind kind) {
  return kind == Kind::kError ? f.for_error : kind == Kind::kEnv ? f.for_env : f.for_faq;
}

template <size_t N>
std::string joined(const std::array<std::string_view, N>& words) {
  std::string out;
  for (std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

template <size_t N>
bool contains(const std::array<std::string_view, N>& words, const std::string& w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

bool is_url(const std::string& text) {
  return text.starts_with("https://") || text.starts_with("http://");
}

// An example written as a map: `text`, and optionally `source`, nothing else.
bool is_example_map(const YAML::Node& item) {
  if (!item.IsMap() || !item["text"] || !item["text"].IsScalar()) return false;
  if (item["source"] && !item["source"].IsScalar()) return false;
  return item.size() == (item["source"] ? 2u : 1u);
}

// The front matter and the body of one file, with the file lines each starts on.
struct Split {
  std::string yaml;
  std::string body;
  int body_line = 0;
};

bool is_fence(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line == "---";
}

std::optional<Split> split_front_matter(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  const size_t first_end = text.find('\n');
  if (first_end == std::string_view::npos || !is_fence(text.substr(0, first_end))) return {};
  size_t pos = first_end + 1;
  int line = 2;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (is_fence(text.substr(pos, end - pos))) {
      Split s;
      s.yaml = std::string(text.substr(first_end + 1, pos - first_end - 1));
      s.body = end < text.size() ? std::string(text.substr(end + 1)) : "";
      s.body_line = line + 1;
      return s;
    }
    if (end == text.size()) break;
    pos = end + 1;
    ++line;
  }
  return {};
}

// Reads one field's node into the entry, reporting a wrong shape at the node's line.
class FieldReader {
 public:
  FieldReader(const std::string& file, ParsedEntry& out, std::vector<Diagnostic>& problems)
      : file_(file), out_(out), problems_(problems) {}

  void read(const FieldSpec& spec, const YAML::Node& node) {
    const int line = line_of(node);
    out_.field_lines[std::string(spec.name)] = line;
    switch (spec.shape) {
      case Shape::kText: return text_field(spec.name, node, line);
      case Shape::kList: return list_field(spec.name, node);
      case Shape::kBool: return bool_field(node, line);
      case Shape::kSources: return sources_field(node, line);
      case Shape::kExamples: return examples_field(node, line);
    }
  }

  static int line_of(const YAML::Node& node) { return node.Mark().line + 2; }

 private:
  void problem(int line, std::string message) {
    problems_.push_back({file_, line, std::move(message)});
  }

  // Long text is reported, not cut: a silently shortened signature would match the wrong things.
  bool too_long(std::string_view name, const std::string& value, int line) {
    if (value.size() <= limits::kMaxFieldBytes) return false;
    problem(line, "'" + std::string(name) + "' is longer than " +
                      std::to_string(limits::kMaxFieldBytes) + " bytes");
    return true;
  }

  void text_field(std::string_view name, const YAML::Node& node, int line) {
    if (!node.IsScalar()) return problem(line, "'" + std::string(name) + "' must be text");
    const std::string value = node.Scalar();
    if (too_long(name, value, line)) return;
    Entry& e = out_.entry;
    if (name == "id") e.id = value;
    else if (name == "title") e.title = value;
    else if (name == "category") e.category = value;
    else if (name == "hardware") e.hardware = value;
    else if (name == "hardware_evidence") e.hardware_evidence = value;
    else if (name == "role") e.role = value;
    else if (name == "name") e.env_name = value;
    else if (name == "values") e.env_values = value;
    else if (name == "default") e.env_default = value;
  }

  void list_field(std::string_view name, const YAML::Node& node) {
    std::vector<std::string>* target = nullptr;
    std::vector<int>* lines = nullptr;
    Entry& e = out_.entry;
    if (name == "codes") target = &e.codes;
    if (name == "signatures") target = &e.signatures, lines = &out_.signature_lines;
    if (name == "first_actions") target = &e.first_actions;
    if (name == "related") target = &e.related, lines = &out_.related_lines;
    if (!node.IsSequence())
      return problem(line_of(node), "'" + std::string(name) + "' must be a list");
    for (const YAML::Node& item : node) {
      if (!item.IsScalar()) {
        problem(line_of(item), "each item of '" + std::string(name) + "' must be text");
        continue;
      }
      if (too_long(name, item.Scalar(), line_of(item))) continue;
      target->push_back(item.Scalar());
      if (lines) lines->push_back(line_of(item));
    }
  }

  void bool_field(const YAML::Node& node, int line) {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value))
      return problem(line, "'poisons_context' must be true or false");
    out_.entry.poisons_context = value;
  }

  // Each example is its text, or a map of its text and the address it was seen at.
  void examples_field(const YAML::Node& node, int line) {
    if (!node.IsSequence()) return problem(line, "'examples' must be a list");
    for (const YAML::Node& item : node) {
      const int item_line = line_of(item);
      Example x;
      if (item.IsScalar()) {
        x.text = item.Scalar();
      } else if (is_example_map(item)) {
        x.text = item["text"].Scalar();
        if (item["source"]) x.source = item["source"].Scalar();
      } else {
        problem(item_line, "each example must be text, or a 'text' with an optional 'source'");
        continue;
      }
      if (too_long("examples", x.text, item_line)) continue;
      if (!x.source.empty() && !is_url(x.source))
        problem(item_line, "example source '" + x.source + "' must start with http:// or https://");
      out_.entry.examples.push_back(std::move(x));
      out_.example_lines.push_back(item_line);
    }
  }

  void sources_field(const YAML::Node& node, int line) {
    if (!node.IsSequence()) return problem(line, "'sources' must be a list of title and url");
    for (const YAML::Node& item : node) {
      const int item_line = line_of(item);
      if (!item.IsMap() || !item["title"] || !item["url"] || !item["title"].IsScalar() ||
          !item["url"].IsScalar()) {
        problem(item_line, "each source needs a 'title' and a 'url'");
        continue;
      }
      const std::string url = item["url"].Scalar();
      if (!is_url(url))
        problem(item_line, "source url '" + url + "' must start with http:// or https://");
      out_.entry.sources.push_back({item["title"].Scalar(), url});
    }
  }

  const std::string& file_;
  ParsedEntry& out_;
  std::vector<Diagnostic>& problems_;
};

const FieldSpec* find_field(std::string_view name) {
  for (const FieldSpec& f : kFields)
    if (f.name == name) return &f;
  return nullptr;
}

// Checks the values of fields that have a fixed vocabulary or a relation to the file name.
void check_values(const std::string& file, const ParsedEntry& p, std::vector<Diagnostic>& out) {
  const Entry& e = p.entry;
  auto line = [&](const char* f) { return p.field_lines.count(f) ? p.field_lines.at(f) : 1; };
  const std::string stem = fs::path(file).stem().string();
  if (!e.id.empty() && e.id != stem)
    out.push_back({file, line("id"), "id '" + e.id + "' must equal the file name '" + stem + "'"});
  if (!e.id.empty() && e.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") !=
                           std::string::npos)
    out.push_back({file, line("id"), "id '" + e.id + "' may hold only a-z, 0-9 and '-'"});
  if (e.kind == Kind::kError && !e.category.empty() && !contains(kCategories, e.category))
    out.push_back({file, line("category"),
                   "unknown category '" + e.category + "' (one of: " + joined(kCategories) + ")"});
  if (e.kind == Kind::kError && !e.hardware.empty() && !contains(kHardware, e.hardware))
    out.push_back({file, line("hardware"),
                   "unknown hardware '" + e.hardware + "' (one of: " + joined(kHardware) + ")"});
  if (e.kind == Kind::kError && !e.role.empty() && !contains(kRoles, e.role))
    out.push_back({file, line("role"),
                   "unknown role '" + e.role + "' (one of: " + joined(kRoles) + ")"});
  for (const std::string& code : e.codes)
    if (code.find_first_not_of("0123456789") == std::string::npos)
      out.push_back({file, line("codes"),
                     "code '" + code + "' is a bare number; write it as cuda:N, cu:N or xid:N"});
}

void read_fields(const std::string& file, const YAML::Node& root, ParsedEntry& p,
                 std::vector<Diagnostic>& problems) {
  FieldReader reader(file, p, problems);
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = it->first.Scalar();
    const FieldSpec* spec = find_field(key);
    if (!spec || !applies(*spec, p.entry.kind)) {
      problems.push_back({file, FieldReader::line_of(it->first),
                          "unknown field '" + key + "' for a " + kind_name(p.entry.kind) +
                              " entry"});
      continue;
    }
    if (!it->second.IsNull()) reader.read(*spec, it->second);
  }
  for (const FieldSpec& f : kFields) {
    const std::string name(f.name);
    if (f.required && applies(f, p.entry.kind) && !p.field_lines.count(name))
      problems.push_back({file, 1, "missing required field '" + name + "'"});
  }
}

}  // namespace

ParsedEntry parse_entry(const std::string& file, Kind kind, std::string_view text,
                        std::vector<Diagnostic>& problems) {
  ParsedEntry p;
  p.entry.kind = kind;
  p.entry.file = file;
  const std::optional<Split> split = split_front_matter(text);
  if (!split) {
    problems.push_back({file, 1, "no front matter: the file must start with a '---' line and "
                                 "the front matter end with another"});
    return p;
  }
  YAML::Node root;
  try {
    root = YAML::Load(split->yaml);
  } catch (const YAML::Exception& e) {
    problems.push_back({file, e.mark.line + 2, "front matter is not valid YAML: " + e.msg});
    return p;
  }
  if (!root.IsMap()) {
    problems.push_back({file, 2, "front matter must be a YAML mapping of field: value"});
    return p;
  }
  read_fields(file, root, p, problems);
  check_values(file, p, problems);
  p.entry.body_markdown = split->body;
  RenderedBody body = render_body(file, split->body_line, split->body);
  p.entry.body_html = std::move(body.html);
  problems.insert(problems.end(), body.problems.begin(), body.problems.end());
  return p;
}

namespace {

// The file's text, or nullopt with a problem recorded: a kb file that cannot be read (a symlink
// loop, a directory named .md, no permission) or is too large is reported with the others.
std::optional<std::string> read_file(const fs::path& path, std::vector<Diagnostic>& problems) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) {
    problems.push_back({path.string(), 0, "cannot read the file: " + ec.message()});
    return std::nullopt;
  }
  if (size > limits::kMaxKbFileBytes) {
    problems.push_back({path.string(), 0, "the file is larger than " +
                                              std::to_string(limits::kMaxKbFileBytes >> 10) +
                                              " KiB; split the entry or shorten it"});
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || in.bad()) {
    problems.push_back({path.string(), 0, std::string("cannot read the file: ") + std::strerror(errno)});
    return std::nullopt;
  }
  return text.str();
}

}  // namespace

std::vector<DocumentedCode> parse_coverage(const std::string& file, std::string_view text,
                                           std::vector<Diagnostic>& problems) {
  std::vector<DocumentedCode> out;
  const std::string family = fs::path(file).stem().string();
  int line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.empty() || line.starts_with("#")) continue;
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) {
      problems.push_back({file, line_number, "expected 'code<TAB>name'"});
      continue;
    }
    out.push_back({family, std::string(line.substr(0, tab)), std::string(line.substr(tab + 1))});
  }
  return out;
}

namespace {

void load_coverage(const fs::path& dir, KbContent& out) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::vector<fs::path> files;
  for (const fs::directory_entry& f : fs::directory_iterator(dir, ec))
    if (f.path().extension() == ".tsv" && f.is_regular_file(ec)) files.push_back(f.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    const std::optional<std::string> text = read_file(f, out.problems);
    if (!text) continue;
    std::vector<DocumentedCode> codes = parse_coverage(f.string(), *text, out.problems);
    out.documented.insert(out.documented.end(), codes.begin(), codes.end());
  }
}

}  // namespace

std::string layer_name(const std::string& dir, std::vector<Diagnostic>& problems) {
  fs::path path = fs::path(dir).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();
  const std::string folder = path.filename().string();
  const fs::path file = fs::path(dir) / "layer";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return folder;
  const std::optional<std::string> text = read_file(file, problems);
  std::string name = text ? text->substr(0, text->find('\n')) : "";
  while (!name.empty() && (name.back() == ' ' || name.back() == '\r')) name.pop_back();
  if (name.empty() || name.size() > 64 ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-") != std::string::npos) {
    problems.push_back({file.string(), 1, "layer name '" + name + "' must be 1-64 characters of "
                                              "a-z, 0-9, '.', '_' and '-'"});
    return folder;
  }
  return name;
}

KbContent load_kb(const std::string& dir, const std::string& layer) {
  KbContent out;
  const std::array<std::pair<const char*, Kind>, 3> folders{
      {{"errors", Kind::kError}, {"env", Kind::kEnv}, {"faq", Kind::kFaq}}};
  bool any_folder = false;
  for (const auto& [folder, kind] : folders) {
    const fs::path sub = fs::path(dir) / folder;
    std::error_code ec;
    if (!fs::is_directory(sub, ec)) continue;
    any_folder = true;
    std::vector<fs::path> files;
    // Every *.md is taken, whatever it is, so that one that cannot be read is reported.
    for (const fs::directory_entry& f : fs::directory_iterator(sub, ec))
      if (f.path().extension() == ".md") files.push_back(f.path());
    if (ec) throw Error("listing kb folder '" + sub.string() + "': " + ec.message());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const std::optional<std::string> text = read_file(f, out.problems);
      if (!text) continue;
      ParsedEntry p = parse_entry(f.string(), kind, *text, out.problems);
      p.entry.layer = layer;
      out.entries.push_back(std::move(p));
    }
  }
  load_coverage(fs::path(dir) / "coverage", out);
  if (!any_folder)
    out.problems.push_back({dir, 0, "no errors/, env/ or faq/ folder: not a kb directory"});
  return out;
}

}  // namespace gpuerr::indexer
