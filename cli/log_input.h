// Reading log files line by line: plain, gzip or zstd (told by their first bytes), or standard
// input, in large blocks, so a multi-gigabyte log streams through in bounded memory. A second
// thread reads and decompresses while the caller's thread scans what was read before.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuerr::cli {

/// Called, on the thread that called read_log, with runs of whole lines: `lines` holds them
/// separated by '\n' (the last one lacks it); the first is line `first_line` (counting from 1). A
/// line longer than kMaxLineBytes may be cut there: it is when it spans two of the chunks the
/// file is read or decompressed in (1 MiB read; up to 1 MiB inflated from .gz, 128 KiB from
/// .zst), so a plain and a compressed copy of one log can differ past that length.
inline constexpr size_t kMaxLineBytes = 64 * 1024;
using BlockSink = std::function<void(size_t first_line, std::string_view lines)>;

/// Called now and then, on the reading thread, with the bytes read so far from the file
/// (compressed bytes for a compressed file) and its size (0 when unknown, as for a pipe).
using ProgressSink = std::function<void(size_t read, size_t size)>;

/// Reads `path` ("-" for standard input). Throws gpuerr::Error naming the file when it cannot be
/// opened or read, or a compressed stream is damaged or cut short; rethrows what `each_block`
/// throws once the reading thread has stopped (at its next read: on a quiet pipe, when data or
/// the end of the input arrives).
void read_log(const std::string& path, const BlockSink& each_block,
              const ProgressSink& progress = nullptr);

/// The files `paths` name, a folder standing for every file under it (its subfolders too, in
/// the order of their paths; files and folders whose names start with '.' left out), so
/// `gpuerr triage job-1234/` reads a job's collected logs. Throws gpuerr::Error naming a path
/// that does not exist or a folder that holds no file.
std::vector<std::string> expand_folders(const std::vector<std::string>& paths);

}  // namespace gpuerr::cli
