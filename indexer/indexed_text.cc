#include "indexer/indexed_text.h"

#include "indexer/schema.h"

namespace gpuerr {

std::string signature_words(const std::string& signature) {
  if (signature.starts_with("re:")) return "";
  std::string out;
  bool in_placeholder = false;
  for (char c : signature) {
    if (c == '{') in_placeholder = true;
    else if (c == '}') in_placeholder = false, c = ' ';
    if (!in_placeholder) out += c;
  }
  return out;
}

void for_each_indexed_field(const Entry& e,
                            const std::function<void(const std::string&, unsigned)>& field) {
  field(e.title, schema::kWeightTitle);
  field(e.env_name, schema::kWeightTitle);
  for (const std::string& s : e.signatures) field(signature_words(s), schema::kWeightSignature);
  for (const std::string& c : e.codes)  // "cuda:700" is found through the code layer instead
    if (c.find(':') == std::string::npos) field(c, schema::kWeightCode);
  for (const Example& x : e.examples) field(x.text, schema::kWeightExample);
  field(e.body_markdown, schema::kWeightBody);
}

}  // namespace gpuerr
