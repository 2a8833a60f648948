// Input cleaning: turns what a person pasted into what the matcher should see. Removes what
// varies between two occurrences of the same failure (terminal escapes, progress redraws,
// timestamps, rank and host prefixes, addresses, numbers, paths). Pure functions on strings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuerr::query {

/// Structured loggers (Docker's json-file driver, Kubernetes log collectors, `journalctl -o
/// json`) write each line as a JSON object whose string fields hold what the program printed,
/// its line breaks and quotes escaped. For such a line, its strings (nested ones too), decoded,
/// one per line; nullopt for any other line and for a record without a string. A journald
/// record (MESSAGE and __REALTIME_TIMESTAMP) is instead the one line `journalctl -o short-iso`
/// would print for it: time, host, program[pid] and message.
std::optional<std::string> json_record_strings(std::string_view line);

/// What the program printed, as far as the paste shows it:
/// - a line that is a JSON object (a structured logger's record: Docker, Kubernetes, journald)
///   becomes the strings it holds, decoded, one per line;
/// - what a copy through an editor, chat client or web page changed is changed back: curly
///   quotes, dashes, the ellipsis and Unicode spaces become their ASCII forms, zero-width spaces
///   and byte-order marks are dropped;
/// - what a terminal would not show goes: ANSI escape sequences and, on each line, everything
///   before the last carriage return (progress bars redraw with '\r'). NUL bytes become spaces.
/// Line breaks are kept.
std::string as_printed(std::string_view text);

/// `text` with every line of at least `kWrappedWidth` characters joined to the next one, for
/// terminals and log collectors that hard-wrap long lines mid-word ("an illegal me" / "mory
/// access was encountered"), unless the next line starts with the same first word (a per-line
/// prefix such as srun -l's "3:"). `glue` goes between the two: "" for a wrap mid-word, " " for
/// one at a word's end, where the wrapping dropped the blank (mail, editors, `fmt`); with a blank
/// glue a shorter line is joined too when the next line's first word would not have fitted after
/// it within `kWordWrapWidth` columns. Returns `text` unchanged when no line is joined.
inline constexpr size_t kWrappedWidth = 70;
/// Where mail and editors wrap at a word's end: a line is wrapped there when the next line's
/// first word would not have fitted after it within this many columns.
inline constexpr size_t kWordWrapWidth = 80;
std::string unwrap_long_lines(std::string_view text, std::string_view glue = "");

/// The rows of tables drawn with '|' borders (dcgmi diag's, Triton server's model table), each
/// row's cells with the continuation rows under them (first column blank) joined on: the tool
/// wraps a long cell at the column's width, often mid-word ("Rese" / "t GPU"). `glue` joins the
/// pieces with nothing, else with a space (a wrap at a word's end). Cells are written one after
/// another, " | " between them; other lines stay. Empty when `text` has no such table.
std::string unwrap_table_cells(std::string_view text, bool glue);

/// The words worth searching for: `as_printed`, then timestamps, rank and host prefixes,
/// hexadecimal addresses, paths and plain numbers removed. What is left is ordinary text, for
/// the full-text layer only (signatures and codes read the less-cleaned text).
std::string search_text(std::string_view text);

}  // namespace gpuerr::query
