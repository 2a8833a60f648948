// How text output looks where it goes: colour, wrapping and paging, decided once per run from
// --color, NO_COLOR, the terminal's size and whether standard output is a terminal. Pipes and
// files get plain, unwrapped text, so scripts see the same bytes whatever the terminal.
#pragma once

#include <string>
#include <string_view>

namespace gpuerr::cli {

struct Style {
  bool color = false;  // ANSI colour and bold
  size_t width = 0;    // wrap long lines at this many columns; 0: do not wrap
  size_t height = 0;   // rows of the terminal; 0: unknown (never page)

  std::string title(std::string_view s) const;   // bold
  std::string action(std::string_view s) const;  // the first action: bold green
  std::string label(std::string_view s) const;   // headings and field names: cyan
  std::string weak(std::string_view s) const;    // secondary text: dim
  std::string warn(std::string_view s) const;    // "no confident match", unsafe: yellow
};

/// The style for standard output: `color` is "auto" (colour on a terminal unless NO_COLOR is
/// set), "always" or "never". Width and height come from the terminal, or COLUMNS and LINES.
Style output_style(const std::string& color);

/// `text` wrapped at `width` columns (counting bytes, not escape codes), the first line after
/// `first_indent` columns already used, continuation lines indented by `indent`. Unchanged when
/// width is 0 or the text fits.
std::string wrap(std::string_view text, size_t width, size_t first_indent, size_t indent);

/// Prints `text` to standard output, through $PAGER (default `less -FRX`) when standard output
/// is a terminal and the text is taller than it. PAGER="" or PAGER=cat never pages.
void show(const std::string& text, const Style& style);

}  // namespace gpuerr::cli
