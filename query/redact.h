// Redaction: replaces host names, IP addresses, user names and home paths with stable
// placeholders ("host-1", "ip-2", "user-1"), so that a log excerpt or a triage report can leave
// the cluster. The same name always gets the same placeholder within one Redactor. No I/O.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpuerr::query {

class Redactor {
 public:
  Redactor();
  ~Redactor();
  Redactor(const Redactor&) = delete;
  Redactor& operator=(const Redactor&) = delete;

  /// Remembers a host name seen in a prefix (syslog, NCCL, kubectl), so it is replaced wherever
  /// it appears later, even in free text.
  void learn_host(std::string_view host);

  /// `text` with every IP address, home path, user name and known host replaced.
  std::string redact(std::string_view text);

 private:
  // One kind of name ("host", "ip", "user") and the placeholders given so far.
  struct Names {
    std::string kind;
    std::map<std::string, std::string> placeholders;  // name -> "host-1"
    // The names as whole-word patterns, longest first so "node1" never eats into "node10";
    // compiled once, when a name is first seen, not for every line.
    struct Pattern {
      size_t length;  // of the name
      std::shared_ptr<const re2::RE2> word;  // shared_ptr: RE2 is only declared here
      std::string placeholder;
    };
    std::vector<Pattern> patterns;
  };

  void remember(Names& names, const std::string& name);
  static void replace(const Names& names, std::string& text);

  Names hosts_{"host", {}, {}}, ips_{"ip", {}, {}}, users_{"user", {}, {}};
};

}  // namespace gpuerr::query
