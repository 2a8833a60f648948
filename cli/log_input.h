// Reading log files line by line: plain, gzip or zstd (told by their first bytes), or standard
// input, in large blocks, so a multi-gigabyte log streams through in bounded memory.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace gpuerr::cli {

/// Called for every line, without its line break; `line` counts from 1.
using LineSink = std::function<void(size_t line, std::string_view text)>;

/// Called now and then with the bytes read so far from the file (compressed bytes for a
/// compressed file) and its size (0 when unknown, as for a pipe).
using ProgressSink = std::function<void(size_t read, size_t size)>;

/// Reads `path` ("-" for standard input). A line longer than `kMaxLineBytes` is cut there (the
/// rest of it is skipped). Throws gpuerr::Error naming the file when it cannot be opened or a
/// compressed stream is damaged.
inline constexpr size_t kMaxLineBytes = 64 * 1024;
void read_log(const std::string& path, const LineSink& each_line,
              const ProgressSink& progress = nullptr);

}  // namespace gpuerr::cli
