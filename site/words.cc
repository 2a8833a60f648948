#include "site/words.h"

#include <cctype>

namespace gpuerr::site {

std::vector<std::string> search_words(std::string_view text) {
  constexpr size_t kMaxWord = 64;  // Xapian's longest term, less its prefix
  std::vector<std::string> out;
  auto word_char = [](char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return u < 0x80 && (std::isalnum(u) || c == '_');
  };
  size_t i = 0;
  while (i < text.size()) {
    if (!word_char(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && word_char(text[end])) ++end;
    if (!std::isdigit(static_cast<unsigned char>(text[i])) && end - i <= kMaxWord) {
      std::string word(text.substr(i, end - i));
      for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out.push_back(std::move(word));
    }
    i = end;
  }
  return out;
}

const std::vector<std::string>& stop_words() {
  // The same words as kStopWords in query/store.cc, which keeps them private to the engine.
  static const std::vector<std::string> words{
      "a",   "an",   "and", "are", "as",   "at",   "be",   "by",  "for", "from",
      "has", "have", "in",  "is",  "it",   "its",  "of",   "on",  "or",  "that",
      "the", "this", "to",  "was", "were", "with", "will", "you", "your"};
  return words;
}

}  // namespace gpuerr::site
