#include "site/html.h"

#include <cctype>

namespace gpuerr::site {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

// Wraps each span of `text` between two `marker`s in <tag>; an unpaired marker stays text.
// `text` is already escaped, so markers never meet markup of the author's.
std::string pair_markers(const std::string& text, std::string_view marker, std::string_view tag) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = text.find(marker, at);
    const size_t close = open == std::string::npos ? open : text.find(marker, open + marker.size());
    if (close == std::string::npos) break;
    out.append(text, at, open - at);
    out += "<" + std::string(tag) + ">";
    out.append(text, open + marker.size(), close - open - marker.size());
    out += "</" + std::string(tag) + ">";
    at = close + marker.size();
  }
  out.append(text, at);
  return out;
}

}  // namespace

std::string inline_html(std::string_view markdown) {
  // Code spans first, so that ** inside a code span stays as typed.
  std::string out;
  const std::string escaped = escape(markdown);
  size_t at = 0;
  while (true) {
    const size_t open = escaped.find('`', at);
    const size_t close = open == std::string::npos ? open : escaped.find('`', open + 1);
    if (close == std::string::npos) break;
    out += pair_markers(escaped.substr(at, open - at), "**", "strong");
    out += "<code>" + escaped.substr(open + 1, close - open - 1) + "</code>";
    at = close + 1;
  }
  out += pair_markers(escaped.substr(at), "**", "strong");
  return out;
}

std::string external_url(std::string_view url) {
  auto starts = [&](std::string_view scheme) {
    if (url.size() <= scheme.size()) return false;
    for (size_t i = 0; i < scheme.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(url[i])) != scheme[i]) return false;
    return true;
  };
  return starts("https://") || starts("http://") ? std::string(url) : std::string();
}

std::string url_path(std::string_view path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : path) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || std::string_view("-._~/").find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

std::string slug(std::string_view name) {
  std::string out;
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u))
      out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "-" : out;
}

}  // namespace gpuerr::site
