// Input cleaning: turns what a person pasted into what the matcher should see. Removes what
// varies between two occurrences of the same failure (terminal escapes, progress redraws,
// timestamps, rank and host prefixes, addresses, numbers, paths). Pure functions on strings.
#pragma once

#include <string>
#include <string_view>

namespace gpuerr::query {

/// What a terminal would have shown: ANSI escape sequences removed and, on each line, only the
/// text after the last carriage return (progress bars redraw with '\r'). NUL bytes become
/// spaces. Line breaks are kept.
std::string strip_terminal(std::string_view text);

/// `text` with every line of at least `kWrappedWidth` characters joined to the next one, for
/// terminals and log collectors that hard-wrap long lines mid-word ("an illegal me" / "mory
/// access was encountered"). Returns `text` unchanged when no line is that long.
inline constexpr size_t kWrappedWidth = 70;
std::string unwrap_long_lines(std::string_view text);

/// The words worth searching for: `strip_terminal`, then timestamps, rank and host prefixes,
/// hexadecimal addresses, paths and plain numbers removed. What is left is ordinary text, for
/// the full-text layer only (signatures and codes read the less-cleaned text).
std::string search_text(std::string_view text);

}  // namespace gpuerr::query
