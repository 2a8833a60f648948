// Reading log files line by line: plain, gzip or zstd (told by their first bytes), or standard
// input, in large blocks, so a multi-gigabyte log streams through in bounded memory. A second
// thread reads and decompresses while the caller's thread scans what was read before.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace gpuerr::cli {

/// Called, on the thread that called read_log, with runs of whole lines: `lines` holds them
/// separated by '\n' (the last one lacks it); the first is line `first_line` (counting from 1). A
/// line that spans two of the 1 MiB blocks read is cut at kMaxLineBytes; shorter ones come whole.
using BlockSink = std::function<void(size_t first_line, std::string_view lines)>;

/// Called now and then, on the reading thread, with the bytes read so far from the file
/// (compressed bytes for a compressed file) and its size (0 when unknown, as for a pipe).
using ProgressSink = std::function<void(size_t read, size_t size)>;

/// Reads `path` ("-" for standard input). Throws gpuerr::Error naming the file when it cannot be
/// opened or read, or a compressed stream is damaged or cut short; rethrows what `each_block`
/// throws, after stopping the reading thread.
inline constexpr size_t kMaxLineBytes = 64 * 1024;
void read_log(const std::string& path, const BlockSink& each_block,
              const ProgressSink& progress = nullptr);

}  // namespace gpuerr::cli
