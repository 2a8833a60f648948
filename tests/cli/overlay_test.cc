// Site overlays (docs/overlays.md): a later kb layer adds entries and replaces earlier ones by
// id, the lint notes each replacement, and every answer names its layer.
#include <doctest/doctest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "tests/support.h"

namespace gpuerr::cli {

using test::run_gpuerr;
using test::run_shell;

namespace {

const std::string kBundledKb = std::string(GPUERR_SOURCE_DIR) + "/kb";

// An overlay named "acme" that replaces misaligned-address and adds a site failure.
std::filesystem::path make_overlay() {
  const std::filesystem::path dir = test::temp_dir() / "acme-kb";
  test::write_file(dir / "layer", "acme\n");
  test::write_file(dir / "errors" / "misaligned-address.md", R"(---
id: misaligned-address
title: "CUDA error: misaligned address"
category: application
signatures:
  - "misaligned address"
hardware: "no"
first_actions:
  - "Open a ticket with the ACME GPU team, queue gpu-apps, with the job id."
examples:
  - "RuntimeError: CUDA error: misaligned address"
sources:
  - title: "CUDA Runtime API: cudaError_t"
    url: "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"
---
Our site's procedure.
)");
  test::write_file(dir / "errors" / "acme-lustre-eviction.md", R"(---
id: acme-lustre-eviction
title: "LustreError: ... evicted by the MDS"
category: configuration
signatures:
  - "LustreError: {*} This client was evicted by"
hardware: "no"
first_actions:
  - "Check the node's Lustre client with `lctl get_param osc.*.state`, then requeue the job."
examples:
  - "LustreError: 167-0: acme-MDT0000-mdc: This client was evicted by acme-MDT0000; in progress operations using this service will fail."
sources:
  - title: "Lustre manual: client eviction"
    url: "https://doc.lustre.org/lustre_manual.xhtml"
---
A site failure.
)");
  return dir;
}

}  // namespace

TEST_SUITE("cli") {

TEST_CASE("an overlay adds and replaces entries, and answers name their layer") {
  const std::filesystem::path overlay = make_overlay();
  const std::string index = (overlay.parent_path() / "index").string();
  const test::Run built =
      run_gpuerr({"index", "--kb", kBundledKb, "--kb", overlay.string(), "--out", index});
  REQUIRE(built.exit_code == 0);
  CHECK(built.err.find("note: entry 'misaligned-address' of layer 'acme' replaces the one of "
                       "layer 'bundled'") != std::string::npos);
  const test::Run replaced =
      run_gpuerr({"--index", index, "--json", "CUDA error: misaligned address"});
  REQUIRE(replaced.exit_code == 0);
  const nlohmann::json first = nlohmann::json::parse(replaced.out)["matches"][0];
  CHECK(first["id"] == "misaligned-address");
  CHECK(first["layer"] == "acme");
  CHECK(first["first_action"].get<std::string>().find("ACME GPU team") != std::string::npos);
  const test::Run added = run_gpuerr(
      {"--index", index, "LustreError: 167-0: acme-MDT0000-mdc: This client was evicted by acme"});
  CHECK(added.exit_code == 0);
  CHECK(added.out.find("acme]") != std::string::npos);  // "[configuration, 97%, acme]"
  const test::Run bundled = run_gpuerr({"--index", index, "--brief", "Xid 79"});
  CHECK(bundled.out.find("\tbundled") != std::string::npos);
}

TEST_CASE("GPUERR_KB_PATH lists the layers when --kb is not given") {
  const std::filesystem::path overlay = make_overlay();
  const std::string index = (overlay.parent_path() / "index-env").string();
  const test::Run run = run_shell("GPUERR_KB_PATH='" + kBundledKb + ":" + overlay.string() +
                                  "' @gpuerr@ index --out '" + index + "'");
  REQUIRE(run.exit_code == 0);
  CHECK(run_gpuerr({"--index", index, "show", "acme-lustre-eviction"}).out.find("layer: acme") !=
        std::string::npos);
  const test::Run none = run_shell("env -u GPUERR_KB_PATH @gpuerr@ lint");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("GPUERR_KB_PATH") != std::string::npos);
}

TEST_CASE("a bad layer name is a problem with its file") {
  const std::filesystem::path overlay = make_overlay();
  test::write_file(overlay / "layer", "Not A Name!\n");
  const test::Run run = run_gpuerr({"lint", "--kb", kBundledKb, "--kb", overlay.string()});
  CHECK(run.exit_code == 1);
  CHECK(run.err.find((overlay / "layer").string() + ":1: layer name") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuerr::cli
