#include "query/redact.h"

#include <algorithm>
#include <vector>

#include <re2/re2.h>

#include "query/log_line.h"

namespace gpuerr::query {

std::string Redactor::placeholder(std::map<std::string, std::string>& names,
                                  const std::string& kind, const std::string& name) {
  auto it = names.find(name);
  if (it != names.end()) return it->second;
  return names.emplace(name, kind + "-" + std::to_string(names.size() + 1)).first->second;
}

void Redactor::learn_host(std::string_view host) {
  // IP addresses get their own placeholders; one- or two-letter names are too likely to be words.
  static const RE2 ip(R"(\d+\.\d+\.\d+\.\d+)");
  if (host.size() < 3 || RE2::FullMatch(host, ip)) return;
  placeholder(hosts_, "host", std::string(host));
}

std::string Redactor::redact(std::string_view text) {
  std::string out(text);
  // Learn what the line's own prefixes say before replacing anything.
  const ParsedLine parsed = parse_line(text, 2000);
  if (!parsed.origin.host.empty()) learn_host(parsed.origin.host);
  static const RE2 named_host(R"((?:\bhost\s*[:=]\s*|@|\bon (?:node|host) )([A-Za-z][\w.-]{2,}))");
  re2::StringPiece scan(out);
  std::string host;
  while (RE2::FindAndConsume(&scan, named_host, &host)) learn_host(host);

  // Home directories and user names: /home/alice/..., /Users/alice/..., alice@node.
  static const RE2 home(R"((/home/|/Users/|/u/)([\w.-]+))");
  static const RE2 user_at(R"(\b([a-z_][\w.-]*)@)");
  std::string result;
  re2::StringPiece in(out);
  std::string prefix, user;
  while (RE2::FindAndConsume(&in, home, &prefix, &user)) placeholder(users_, "user", user);
  in = re2::StringPiece(out);
  while (RE2::FindAndConsume(&in, user_at, &user)) placeholder(users_, "user", user);

  static const RE2 ipv4(R"(\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b)");
  static const RE2 ipv6(R"(\b([0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){3,7})\b)");
  in = re2::StringPiece(out);
  std::string ip;
  while (RE2::FindAndConsume(&in, ipv4, &ip)) placeholder(ips_, "ip", ip);
  in = re2::StringPiece(out);
  while (RE2::FindAndConsume(&in, ipv6, &ip))
    if (ip.find("::") != std::string::npos || std::count(ip.begin(), ip.end(), ':') >= 5)
      placeholder(ips_, "ip", ip);

  // Replace whole words only, longest names first so "node1" never eats into "node10".
  auto replace_all = [&](const std::map<std::string, std::string>& names) {
    std::vector<std::pair<std::string, std::string>> by_length(names.begin(), names.end());
    std::sort(by_length.begin(), by_length.end(),
              [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    for (const auto& [name, replacement] : by_length) {
      const RE2 word("(^|[^\\w.-])" + RE2::QuoteMeta(name) + "($|[^\\w-])");
      RE2::GlobalReplace(&out, word, "\\1" + replacement + "\\2");
      RE2::GlobalReplace(&out, word, "\\1" + replacement + "\\2");  // adjacent occurrences
    }
  };
  replace_all(ips_);
  replace_all(hosts_);
  replace_all(users_);
  return out;
}

}  // namespace gpuerr::query
