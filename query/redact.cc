#include "query/redact.h"

#include <algorithm>
#include <vector>

#include <re2/re2.h>

#include "query/log_line.h"

namespace gpuerr::query {

Redactor::Redactor() = default;
Redactor::~Redactor() = default;

void Redactor::remember(Names& names, const std::string& name) {
  if (names.placeholders.count(name)) return;
  const std::string placeholder = names.kind + "-" + std::to_string(names.placeholders.size() + 1);
  names.placeholders.emplace(name, placeholder);
  auto at = std::find_if(names.patterns.begin(), names.patterns.end(),
                         [&](const Names::Pattern& p) { return p.length < name.size(); });
  names.patterns.insert(
      at, {name.size(),
           std::make_shared<const RE2>("(^|[^\\w.-])" + RE2::QuoteMeta(name) + "($|[^\\w-])"),
           placeholder});
}

void Redactor::replace(const Names& names, std::string& text) {
  for (const Names::Pattern& p : names.patterns) {
    RE2::GlobalReplace(&text, *p.word, "\\1" + p.placeholder + "\\2");
    RE2::GlobalReplace(&text, *p.word, "\\1" + p.placeholder + "\\2");  // adjacent occurrences
  }
}

void Redactor::learn_host(std::string_view host) {
  // IP addresses get their own placeholders; one- or two-letter names are too likely to be words.
  static const RE2 ip(R"(\d+\.\d+\.\d+\.\d+)");
  if (host.size() < 3 || RE2::FullMatch(host, ip)) return;
  remember(hosts_, std::string(host));
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
  re2::StringPiece in(out);
  std::string prefix, user;
  while (RE2::FindAndConsume(&in, home, &prefix, &user)) remember(users_, user);
  in = re2::StringPiece(out);
  while (RE2::FindAndConsume(&in, user_at, &user)) remember(users_, user);

  static const RE2 ipv4(R"(\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b)");
  static const RE2 ipv6(R"(\b([0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){3,7})\b)");
  in = re2::StringPiece(out);
  std::string ip;
  while (RE2::FindAndConsume(&in, ipv4, &ip)) remember(ips_, ip);
  in = re2::StringPiece(out);
  while (RE2::FindAndConsume(&in, ipv6, &ip))
    if (ip.find("::") != std::string::npos || std::count(ip.begin(), ip.end(), ':') >= 5)
      remember(ips_, ip);

  replace(ips_, out);
  replace(hosts_, out);
  replace(users_, out);
  return out;
}

}  // namespace gpuerr::query
