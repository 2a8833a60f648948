// HTML text helpers: escaping every field we print, and the small inline Markdown subset that
// first actions use (`code`, **strong**). Pure functions on strings; no parsing of documents.
#pragma once

#include <string>
#include <string_view>

namespace gpuerr::site {

/// `text` with &, <, >, " and ' replaced by entities: safe in element content and in quoted
/// attribute values alike.
std::string escape(std::string_view text);

/// One line of inline Markdown as HTML: `code` spans and **strong** text; everything else,
/// markup included, is escaped and shows as typed.
std::string inline_html(std::string_view markdown);

/// `url` when it is an http(s) address, else empty: only such links leave the site, so a
/// "javascript:" source in an overlay's kb never becomes a link.
std::string external_url(std::string_view url);

/// `path` with every byte outside letters, digits, "-._~/" percent-encoded, for an href that
/// names one of our files ("e/cuda-out-of-memory.html" stays as it is).
std::string url_path(std::string_view path);

/// A file-name-safe form of `name`: lower-case letters, digits and '-' ("other: configuration"
/// becomes "other-configuration"); "-" alone when nothing is left.
std::string slug(std::string_view name);

}  // namespace gpuerr::site
