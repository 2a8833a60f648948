// `gpuerr export` and the page link of `gpuerr show`, through the built binary.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support.h"

namespace gpuerr::site {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> with_index(std::vector<std::string> args) {
  args.insert(args.begin(), {"--index", test::bundled_index().string()});
  return args;
}

}  // namespace

TEST_SUITE("site") {
TEST_CASE("gpuerr export writes the site and says where, show prints the link to the same page") {
  const fs::path out = test::temp_dir() / "site";
  const test::Run exported = test::run_gpuerr(
      with_index({"export", "--out", out.string(), "--base-url", "https://wiki.example/gpu/"}));
  CHECK(exported.exit_code == 0);
  CHECK(exported.err.empty());
  CHECK(exported.out.starts_with("exported "));
  CHECK(exported.out.ends_with(" as a site to " + out.string() + "\n"));
  CHECK(fs::is_regular_file(out / "e/illegal-memory-access.html"));

  const test::Run shown = test::run_gpuerr(
      with_index({"show", "--site-url", "https://wiki.example/gpu/", "illegal-memory-access"}));
  CHECK(shown.exit_code == 0);
  CHECK(shown.out.ends_with("\nPage: https://wiki.example/gpu/e/illegal-memory-access.html\n"));
}

TEST_CASE("show takes the site's address from GPUERR_SITE_URL, prints it in JSON as url, and "
          "prints no link when none is known") {
  const std::string index = test::bundled_index().string();
  const test::Run from_env = test::run_shell(
      "GPUERR_SITE_URL=http://docs.local/gpuerr @gpuerr@ "
      "--index '" +
      index + "' --json show xid-79");
  REQUIRE(from_env.exit_code == 0);
  CHECK(nlohmann::json::parse(from_env.out)["url"] == "http://docs.local/gpuerr/e/xid-79.html");
  const test::Run none = test::run_shell("env -u GPUERR_SITE_URL @gpuerr@ --index '" + index +
                                         "' --json show xid-79");
  REQUIRE(none.exit_code == 0);
  CHECK(nlohmann::json::parse(none.out)["url"].is_null());
  const test::Run text =
      test::run_shell("env -u GPUERR_SITE_URL @gpuerr@ --index '" + index + "' show xid-79");
  CHECK(text.out.find("Page: ") == std::string::npos);
}

TEST_CASE("gpuerr export under a file: one error line, exit 2, nothing written") {
  const fs::path dir = test::temp_dir();
  test::write_file(dir / "file", "x\n");
  const test::Run r =
      test::run_gpuerr(with_index({"export", "--out", (dir / "file" / "site").string()}));
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "gpuerr: error: exporting the site to '" + (dir / "file" / "site").string() +
                     "': cannot create '" + (dir / "file").string() + "': Not a directory\n");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("gpuerr export --format takes html or docset only") {
  const test::Run r = test::run_gpuerr(
      with_index({"export", "--out", (test::temp_dir() / "x").string(), "--format", "pdf"}));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("pdf") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuerr::site
