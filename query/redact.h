// Redaction: replaces host names, IP addresses, user names and home paths with stable
// placeholders ("host-1", "ip-2", "user-1"), so that a log excerpt or a triage report can leave
// the cluster. The same name always gets the same placeholder within one Redactor. No I/O.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace gpuerr::query {

class Redactor {
 public:
  /// Remembers a host name seen in a prefix (syslog, NCCL, kubectl), so it is replaced wherever
  /// it appears later, even in free text.
  void learn_host(std::string_view host);

  /// `text` with every IP address, home path, user name and known host replaced.
  std::string redact(std::string_view text);

 private:
  std::string placeholder(std::map<std::string, std::string>& names, const std::string& kind,
                          const std::string& name);

  std::map<std::string, std::string> hosts_, ips_, users_;
};

}  // namespace gpuerr::query
