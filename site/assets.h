// The files every exported site carries beside its pages (site/assets/), compiled in.
#pragma once

#include <string_view>

namespace gpuerr::site {

/// The bytes of the asset named `name` ("style.css", "search.js"); empty when there is none.
std::string_view asset(std::string_view name);

}  // namespace gpuerr::site
