// Reading log files line by line: plain, gzip or zstd (told by their first bytes), or standard
// input, in large blocks, so a multi-gigabyte log streams through in bounded memory.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace gpuerr::cli {

/// Called with runs of whole lines: `lines` holds them separated by '\n' (the last one may lack
/// it); the first is line `first_line` (counting from 1). A line longer than kMaxLineBytes is cut
/// there.
using BlockSink = std::function<void(size_t first_line, std::string_view lines)>;

/// Called now and then with the bytes read so far from the file (compressed bytes for a
/// compressed file) and its size (0 when unknown, as for a pipe).
using ProgressSink = std::function<void(size_t read, size_t size)>;

/// Reads `path` ("-" for standard input). Throws gpuerr::Error naming the file when it cannot be
/// opened or a compressed stream is damaged.
inline constexpr size_t kMaxLineBytes = 64 * 1024;
void read_log(const std::string& path, const BlockSink& each_block,
              const ProgressSink& progress = nullptr);

}  // namespace gpuerr::cli
