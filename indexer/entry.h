// The entry model shared by every module: what one kb/ file holds once parsed, and the
// diagnostics reported about kb/ content. Plain values only; no parsing, no storage.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuerr {

/// The three kinds of entry; the kind comes from the kb/ folder the file is in.
enum class Kind { kError, kEnv, kFaq };

/// "error", "env" or "faq": the folder name and the word stored in the index.
const char* kind_name(Kind kind);

/// A public document that an entry's facts were checked against.
struct Source {
  std::string title;
  std::string url;  // http(s)
};

/// A real message as some program printed it, and where it was seen.
struct Example {
  std::string text;    // exactly as printed
  std::string source;  // http(s) address of the issue, document or source file; "" when unknown
};

/// One catalogue entry. Fields that do not apply to the entry's kind stay empty.
struct Entry {
  std::string id;  // the file name without .md, e.g. "illegal-memory-access"
  Kind kind = Kind::kError;
  std::string title;     // errors: the canonical message; env: the variable; faq: the question
  std::string category;  // errors only, e.g. "application"
  std::vector<std::string> codes;       // e.g. "cudaErrorIllegalAddress", "cuda:700", "xid:79"
  std::vector<std::string> signatures;  // message shapes with placeholders, see signature.h
  bool poisons_context = false;
  std::string hardware;  // "no", "possible", "likely" or "yes"
  // In a log: "cause" (the default), "consequence", "memory-error", "memory-notice", "warning",
  // or "report" (a tool's account of a fault, such as compute-sanitizer's: a cause that names
  // the cause of the errors printed beside it).
  std::string role;
  std::string hardware_evidence;
  std::vector<std::string> first_actions;  // ordered, Markdown inline text
  std::vector<std::string> related;        // ids of entries of any kind
  std::vector<Example> examples;
  std::vector<Source> sources;
  std::string env_name;     // env only, e.g. "CUDA_LAUNCH_BLOCKING"
  std::string env_values;   // env only, e.g. "0 or 1"
  std::string env_default;  // env only, e.g. "0"
  std::string body_markdown;
  std::string body_html;  // rendered at index time
  std::string file;       // the kb/ file it came from
  std::string layer;      // "bundled" or the overlay directory it came from
};

/// The role triage reads for an error entry: "cause" when the kb names none, and for a "report",
/// which is the cause of its own fault.
std::string triage_role(const Entry& e);

/// A code that a family's public documentation lists, so the catalogue should have an entry for
/// it (kb/coverage/<family>.tsv).
struct DocumentedCode {
  std::string family;  // e.g. "cuda-runtime", "xid", "cublas"
  std::string code;    // as entries write it: "cuda:700", "xid:79", "CUBLAS_STATUS_NOT_INITIALIZED"
  std::string name;    // the documented name, e.g. "cudaErrorIllegalAddress"
};

/// A problem in kb/ content, reported as "file:line: message".
struct Diagnostic {
  std::string file;
  int line = 0;
  std::string message;
};

/// The form a code is stored and looked up under: lower-case, so that `cudaErrorAssert`,
/// `CUDAERRORASSERT` and `cudaerrorassert` are one code ("xid:79" stays "xid:79").
std::string code_key(std::string_view code);

/// "file:line: message", the form every lint problem is printed in.
std::string to_string(const Diagnostic& d);

}  // namespace gpuerr
