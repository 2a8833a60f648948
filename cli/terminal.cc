#include "cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace gpuerr::cli {
namespace {

std::string paint(bool on, std::string_view code, std::string_view s) {
  if (!on) return std::string(s);
  return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
}

size_t env_size(const char* name) {
  const char* v = std::getenv(name);
  return v ? static_cast<size_t>(std::strtoul(v, nullptr, 10)) : 0;
}

// Bytes that a terminal shows as nothing: ANSI escape sequences.
size_t visible_length(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    ++n;
  }
  return n;
}

}  // namespace

std::string Style::title(std::string_view s) const { return paint(color, "1", s); }
std::string Style::action(std::string_view s) const { return paint(color, "1;32", s); }
std::string Style::label(std::string_view s) const { return paint(color, "36", s); }
std::string Style::weak(std::string_view s) const { return paint(color, "2", s); }
std::string Style::warn(std::string_view s) const { return paint(color, "33", s); }

Style output_style(const std::string& color) {
  Style style;
  const bool terminal = isatty(STDOUT_FILENO) != 0;
  const char* no_color = std::getenv("NO_COLOR");
  style.color = color == "always" ||
                (color == "auto" && terminal && !(no_color && *no_color));
  if (!terminal) return style;  // a pipe or a file: never wrapped, never paged
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
    style.width = size.ws_col;
    style.height = size.ws_row;
  }
  if (const size_t columns = env_size("COLUMNS")) style.width = columns;
  if (const size_t lines = env_size("LINES")) style.height = lines;
  return style;
}

std::string wrap(std::string_view text, size_t width, size_t first_indent, size_t indent) {
  if (width == 0 || width <= indent + 20 || first_indent + visible_length(text) <= width)
    return std::string(text);
  std::string out;
  size_t column = first_indent;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    const size_t length = visible_length(word);
    if (column > indent && column + 1 + length > width) {
      out += '\n' + std::string(indent, ' ');
      column = indent;
    } else if (!out.empty()) {
      out += ' ';
      ++column;
    }
    out += word;
    column += length;
    start = end + 1;
  }
  return out;
}

void show(const std::string& text, const Style& style) {
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  const char* pager = std::getenv("PAGER");
  const std::string command = pager ? pager : "less -FRX";
  if (style.height == 0 || lines < style.height || command.empty() || command == "cat" ||
      !isatty(STDOUT_FILENO)) {
    std::cout << text;
    return;
  }
  std::cout.flush();
  if (FILE* p = popen(command.c_str(), "w")) {
    std::fwrite(text.data(), 1, text.size(), p);
    pclose(p);
    return;
  }
  std::cout << text;  // no pager to be had: print as usual
}

}  // namespace gpuerr::cli
