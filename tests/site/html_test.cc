// The HTML text helpers: escaping, the inline Markdown of first actions, links and file names.
#include "site/html.h"

#include <doctest/doctest.h>

#include "site/layout.h"

namespace gpuerr::site {

TEST_SUITE("site") {
TEST_CASE("escape turns every character that could start markup or end an attribute into an "
          "entity") {
  CHECK(escape("<script>alert(\"x\" + 'y') & more</script>") ==
        "&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;) &amp; more&lt;/script&gt;");
  CHECK(escape("plain text, ünïcode") == "plain text, ünïcode");
}

TEST_CASE("inline Markdown: code spans and strong text, everything else as typed") {
  struct Case {
    std::string markdown, html;
  };
  const Case cases[] = {
      {"Rerun with `CUDA_LAUNCH_BLOCKING=1`.", "Rerun with <code>CUDA_LAUNCH_BLOCKING=1</code>."},
      {"**Drain** the node", "<strong>Drain</strong> the node"},
      {"`a ** b` and **c**", "<code>a ** b</code> and <strong>c</strong>"},
      {"an unpaired ` stays", "an unpaired ` stays"},
      {"<b>not bold</b> `<i>`", "&lt;b&gt;not bold&lt;/b&gt; <code>&lt;i&gt;</code>"},
      {"[a link](https://x)", "[a link](https://x)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.markdown);
    CHECK(inline_html(c.markdown) == c.html);
  }
}

TEST_CASE("only http and https addresses become links out of the site") {
  CHECK(external_url("https://docs.nvidia.com/x") == "https://docs.nvidia.com/x");
  CHECK(external_url("HTTP://example.org") == "HTTP://example.org");
  CHECK(external_url("javascript:alert(1)") == "");
  CHECK(external_url("data:text/html,x") == "");
  CHECK(external_url("https://") == "");
}

TEST_CASE("page paths are stable, named by id, and relative links climb to the root") {
  CHECK(entry_path("illegal-memory-access") == "e/illegal-memory-access.html");
  CHECK(category_path("application") == "category/application.html");
  CHECK(family_path("other: configuration") == "family/other-configuration.html");
  CHECK(family_path("cuda-runtime") == "family/cuda-runtime.html");
  CHECK(root_of("e/xid-79.html") == "../");
  CHECK(root_of("index.html") == "");
  CHECK(url_path("e/a b#c.html") == "e/a%20b%23c.html");
  CHECK(entry_url("https://wiki.example/gpu/", "xid-79") ==
        "https://wiki.example/gpu/e/xid-79.html");
  CHECK(entry_url("https://wiki.example/gpu", "xid-79") ==
        "https://wiki.example/gpu/e/xid-79.html");
  CHECK(slug("!!") == "-");
}

TEST_CASE("each page is one document with the landmarks, one h1 and the stylesheet relative to "
          "it") {
  const std::string html = render({"e/x.html", "A <title>", "<p>body</p>\n", true, "search.js"},
                                  {"0.1.0", "today", 3});
  CHECK(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  CHECK(html.find("<title>A &lt;title&gt; · gpuerr</title>") != std::string::npos);
  CHECK(html.find("<h1>A &lt;title&gt;</h1>\n<p>body</p>") != std::string::npos);
  CHECK(html.find("href=\"../style.css\"") != std::string::npos);
  CHECK(html.find("<script src=\"../search.js\"></script>") != std::string::npos);
  CHECK(html.find("<label for=\"site-q\">") != std::string::npos);
  CHECK(html.find("action=\"../index.html\"") != std::string::npos);
  const std::string home = render({"index.html", "Home", "", false, ""}, {"0.1.0", "today", 3});
  CHECK(home.find("site-q") == std::string::npos);
  CHECK(home.find("<a href=\"index.html\" aria-current=\"page\">Home</a>") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuerr::site
